import { createRequire as __daCreateRequire } from 'node:module';
const require = __daCreateRequire(import.meta.url);
var o=[{name:"docker",env:"DOCKER_HOST",about:""},{name:"podman",env:"CONTAINER_HOST",about:"its service's socket, rootful or rootless: `podman system service`"}],t=o.map(e=>e.name),r=["auto",...t];export{o as a,t as b,r as c};
