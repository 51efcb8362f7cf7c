console.log("usage: acme <command>");
console.log("       acme users");
