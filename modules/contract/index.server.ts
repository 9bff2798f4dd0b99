// Server face of the contract module: the OpenAPI document and the developers' reference page.
export { openApiDocument, openApiPath, type OpenApiDocument } from "./openapi";
export { referencePage } from "./reference";
