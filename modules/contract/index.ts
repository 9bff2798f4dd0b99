// Client-safe public face of the contract module: the table of the public API and its response
// schemas (decision 018). The document itself is made on the server (index.server.ts).
export { API_OPERATIONS, type ApiOperation, type Method } from "./routes";
export * as responses from "./responses";
