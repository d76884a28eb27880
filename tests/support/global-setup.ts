// Filled in by the integration-test support (PGlite template, PostgreSQL migration).
export default async function setup() {}
