import type { ContainmentCaseDef } from "../types.js";

export const NETWORK = {
  id: "containment.network",
  rank: 120,
  title: "Ports on loopback only",
  measures:
    "published ports on loopback only (an IPv6 any-address or the bridge's address is not), each on a host port of 1024 or above (CIS 5.7: a privileged host port fails), `none` means loopback only (measured interfaces); and the engine's API does not answer from inside the subject's network (a trusted probe in its network namespace asks `GET /_ping` at the address this tool reaches the engine at, at the subject's gateway on that port and 2375, and at every TCP listener of the host off loopback (a socket proxy or a daemon's second `-H tcp://` on a port of its own; at most 16, lowest ports first, the rest counted): an `Api-Version` answer fails, the daemon's TCP socket reachable from a container is full control of the host; asks that could not be made (the probe's report did not come, the engine would not start it in that network) are a SKIP saying why, never a pass)",
  standards: { pss: "baseline: Host Ports", cis: "5.7, 5.8, 5.13" },
  remediation: {
    inventory:
      "Publish ports on loopback only (`-p 127.0.0.1:8080:8080`), never on 0.0.0.0, and on a host port of 1024 or above; use `--network none` when the subject declares no network, and never `--network host`. Never let the engine's API listen where a container can reach it: an engine API on TCP on 127.0.0.1 with TLS only (never 0.0.0.0 or the bridge's address), a nested engine service on its TLS port with client certificates, or the subject on `network: none`.",
    cli: `Publish ports on loopback only (\`-p 127.0.0.1:8080:8080\`), never on 0.0.0.0, on a host port of 1024 or above, and never \`--network host\`; a service declared without network runs with \`--network none\` (label \`org.docker-acceptance.network\`).`,
    compose: `Publish ports on loopback only (\`ports: ["127.0.0.1:8080:8080"]\`), never on 0.0.0.0, on a host port of 1024 or above, and never \`network_mode: host\`; a service declared without network sets \`network_mode: none\` (label \`org.docker-acceptance.network\`).`,
  },
} as const satisfies ContainmentCaseDef;
