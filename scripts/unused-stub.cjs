// Stands in for code docker-acceptance bundles but never runs: dockerode's optional transports
// (ssh2 for ssh:// DOCKER_HOST; dockerode's own BuildKit session and status decoder, which read
// .proto files from disk: ours is src/engine/providers/docker/buildkit.ts) and @actions/core's
// OIDC token client (@actions/http-client, which brings undici). Keeps bundles small and fast.
function unsupported() {
  throw new Error(
    "this Docker transport is not supported by docker-acceptance; use a unix socket or tcp:// DOCKER_HOST",
  );
}
class Client {
  constructor() {
    unsupported();
  }
}
module.exports = {
  Client,
  Server: Client,
  HttpClient: Client,
  BearerCredentialHandler: Client,
  loadSync: unsupported,
  loadPackageDefinition: unsupported,
};
