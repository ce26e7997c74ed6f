package executor

// EnvToken is the environment variable of the executor's bearer token
// (--token). BEEUNI_TOKEN is not it: that is the Beeuni API token the
// web_search and image_search tools read from context.env. What tools may
// reach of beeuni's own state (this token, the data folder, key files,
// listen addresses) is decided by Config.Policy (loader/jshost/policy),
// which hostOptions completes with the executor's own.
const EnvToken = "BEEUNI_EXECUTOR_TOKEN"
