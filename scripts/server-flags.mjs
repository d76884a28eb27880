/**
 * The Node.js flags of the production server (scripts/serve.mjs), wherever it is started: `npm start`, the
 * bench, the e2e servers. V8 reads them only at start-up.
 *
 * `--max-semi-space-size=64` (MB; the default is 16): rendering a page allocates a few megabytes that die at
 * once, and with the default young generation, collecting them took 12 % of the server's CPU at concurrency 10
 * (a profile of the Countries page); with 64 MB the dashboard's documents were served about 10 % faster. It
 * costs at most 128 MB more memory, reserved as the load needs it.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
