// Runs once before all test files. Kept small: per-worker resources (anvil, databases) are
// started by the test files themselves through test/support helpers.
export default async function setup(): Promise<void> {}
