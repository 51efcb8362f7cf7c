// dockerode loads ssh2 for ssh:// hosts only; docker-acceptance uses the local socket or tcp.
class Client {
  constructor() {
    throw new Error("ssh:// DOCKER_HOST is not supported by docker-acceptance; use a unix socket or tcp://");
  }
}
module.exports = { Client };
