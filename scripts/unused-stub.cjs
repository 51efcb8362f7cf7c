// Stands in for optional transports dockerode can load but docker-acceptance never uses:
// ssh2 (ssh:// DOCKER_HOST) and gRPC (BuildKit sessions). Keeps each bundle small and loads fast.
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
module.exports = { Client, Server: Client, loadSync: unsupported, loadPackageDefinition: unsupported };
