var n="acceptance/inventory.json";export{n as a};
