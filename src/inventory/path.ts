// Where the inventory is read from when no path is given: the CLI's --inventory, the action's
// `inventory` input (action.yml's default is held to it by tests/action/action-yml.test.ts) and
// alignment's protected files. A module of its own so the doors import it without the schema.
export const DEFAULT_INVENTORY_PATH = "acceptance/inventory.json";
