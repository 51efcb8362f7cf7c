console.log("usage: acme <command>");
