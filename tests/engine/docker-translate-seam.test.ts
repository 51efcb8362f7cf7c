// What crosses the engine seam is the tool's vocabulary: Docker's (and Podman's, read in Docker's
// terms) security options typed by its provider, the host's security options as MAC layers, and the
// owned-objects query as listing filters. Nothing the provider cannot type is dropped.
import { describe, expect, it } from "vitest";
import { OWNER_LABEL, ROLE_LABEL, SUBJECT_LABEL } from "../../src/engine/ownership.js";
import type { OwnedContainer } from "../../src/engine/provider.js";
import { DEFAULT_SECURITY } from "../../src/engine/provider.js";
import { containerFilters, imageFilters, matchesExactly } from "../../src/engine/providers/docker/query.js";
import {
  DOCKER_FIELD_NAMES,
  macLayersOf,
  securityOf,
  securityOpt,
} from "../../src/engine/providers/docker/security.js";

describe("Docker's SecurityOpt, typed", () => {
  it("nothing said is the engine's defaults", () => {
    expect(securityOf([])).toEqual(DEFAULT_SECURITY);
  });

  it.each([
    ["no-new-privileges", true],
    ["no-new-privileges:true", true],
    ["no-new-privileges=1", true],
    ["no-new-privileges=false", false],
    ["no-new-privileges:no", false],
  ])("%s is no-new-privileges %s, said as written", (opt, value) => {
    expect(securityOf([opt]).noNewPrivileges).toEqual({ value, said: opt });
  });

  it("seccomp: the default (builtin or empty), unconfined, a profile's text as recorded", () => {
    expect(securityOf(["seccomp=builtin"]).seccomp).toEqual({ kind: "default", said: "seccomp=builtin" });
    expect(securityOf(["seccomp:unconfined"]).seccomp).toEqual({
      kind: "unconfined",
      said: "seccomp:unconfined",
    });
    const json =
      '{"defaultAction":"SCMP_ACT_ERRNO","syscalls":[{"names":["read"],"action":"SCMP_ACT_ALLOW"}]}';
    expect(securityOf([`seccomp=${json}`]).seccomp).toEqual({
      kind: "profile",
      text: json,
      said: `seccomp=${json}`,
    });
    // A path the engine did not resolve is a profile's text still: judged unreadable, never the default.
    expect(securityOf(["seccomp=/etc/x.json"]).seccomp).toMatchObject({
      kind: "profile",
      text: "/etc/x.json",
    });
  });

  it("the weaker reading wins where a setting is given twice: unconfined anywhere is unconfined", () => {
    expect(securityOf(["seccomp=unconfined", "seccomp=builtin"]).seccomp.kind).toBe("unconfined");
    expect(securityOf(["apparmor=unconfined", "apparmor=docker-default"]).appArmor?.kind).toBe("unconfined");
    expect(securityOf(["apparmor=a", "apparmor=b"]).appArmor).toEqual({
      kind: "profile",
      name: "b",
      said: "apparmor=b",
    });
    expect(securityOf(["no-new-privileges:true", "no-new-privileges=false"]).noNewPrivileges?.value).toBe(
      false,
    );
  });

  it("AppArmor and SELinux options, Podman's merged label entry split into its options", () => {
    const s = securityOf([
      "apparmor=unconfined",
      "label=type:container_t,label=level:s0:c100,c200",
      "label:disable",
    ]);
    expect(s.appArmor).toEqual({ kind: "unconfined", said: "apparmor=unconfined" });
    expect(s.selinux).toEqual([
      { kind: "type", value: "container_t", said: "label=type:container_t" },
      { kind: "level", value: "s0:c100,c200", said: "label=level:s0:c100,c200" },
      { kind: "disable", said: "label:disable" },
    ]);
    expect(s.untyped).toEqual([]);
  });

  it("what it cannot type is carried as written, never dropped and never read as a default", () => {
    const s = securityOf([
      "writable-cgroups=true",
      "no-new-privileges=maybe",
      "label=nested",
      "apparmor=",
      "systempaths=unconfined",
    ]);
    expect(s.untyped).toEqual([
      "writable-cgroups=true",
      "no-new-privileges=maybe",
      "label=nested",
      "apparmor=",
      "systempaths=unconfined",
    ]);
    expect(s.noNewPrivileges).toBeUndefined();
  });

  it("a seccomp profile's text is never split at a label-like comma inside it", () => {
    const json = '{"defaultAction":"SCMP_ACT_ALLOW","comment":"a,label=x"}';
    expect(securityOf([`seccomp=${json}`])).toMatchObject({
      seccomp: { text: json },
      selinux: [],
      untyped: [],
    });
  });

  it("a launch's no-new-privileges, said as Docker takes it", () => {
    expect(securityOpt(true)).toEqual(["no-new-privileges:true"]);
    expect(securityOpt(false)).toEqual([]);
    expect(securityOf(securityOpt(true)).noNewPrivileges?.value).toBe(true);
  });

  it("the host's security options as MAC layers", () => {
    expect(macLayersOf(["name=apparmor", "name=seccomp,profile=builtin", "name=cgroupns"])).toEqual([
      "apparmor",
    ]);
    expect(macLayersOf(["name=selinux", "name=apparmor"])).toEqual(["apparmor", "selinux"]);
    expect(macLayersOf(["name=seccomp,profile=default"])).toEqual([]);
  });

  it("names every hardened setting in Docker's words", () => {
    expect(Object.keys(DOCKER_FIELD_NAMES)).toHaveLength(11);
    expect(DOCKER_FIELD_NAMES["cgroup namespace"]).toBe("CgroupnsMode");
  });
});

describe("the owned-objects query as Docker's listing filters", () => {
  it("owner, role, subject and other labels are label filters; any owner is the key alone", () => {
    expect(
      containerFilters({
        owner: "da-1",
        role: "probe",
        subject: "web",
        labels: [{ key: "tier" }, { key: "app", value: "a=b" }],
        status: ["running", "paused"],
      }),
    ).toEqual({
      label: [`${OWNER_LABEL}=da-1`, `${ROLE_LABEL}=probe`, `${SUBJECT_LABEL}=web`, "tier", "app=a=b"],
      status: ["running", "paused"],
    });
    expect(containerFilters({ owner: true })).toEqual({ label: [OWNER_LABEL] });
    expect(containerFilters({})).toEqual({});
  });

  it("a name is text, not a pattern; an ID's beginning is checked on what is listed", () => {
    expect(containerFilters({ names: ["shop.web-1"], ids: ["0a1b"] })).toEqual({
      name: ["shop\\.web-1"],
      id: ["0a1b"],
    });
    const c = { id: "ff0a1b", names: ["shop.web-1"] } as OwnedContainer;
    expect(matchesExactly({ ids: ["0a1b"] }, c)).toBe(false);
    expect(matchesExactly({ ids: ["ff0a"] }, c)).toBe(true);
    expect(matchesExactly({ names: ["web"] }, c)).toBe(true);
    expect(matchesExactly({ names: ["api", "shop."] }, c)).toBe(true);
    expect(matchesExactly({ names: ["shopXweb"] }, c)).toBe(false);
  });

  it("images: an exact tag, or a prefix as a reference with its wildcard", () => {
    expect(imageFilters({ tag: "docker-acceptance:da-1-web" })).toEqual({
      reference: ["docker-acceptance:da-1-web"],
    });
    expect(imageFilters({ owner: "da-1", tag: { prefix: "docker-acceptance:da-1" } })).toEqual({
      label: [`${OWNER_LABEL}=da-1`],
      reference: ["docker-acceptance:da-1*"],
    });
  });
});
