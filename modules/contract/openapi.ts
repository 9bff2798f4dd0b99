// The OpenAPI 3.1 document of the public API, made from the one table (routes.ts) by converting
// its valibot schemas with @valibot/to-json-schema (JSON Schema 2020-12, OpenAPI 3.1's dialect).
// Request schemas are converted as their input type (what a client sends, before the transforms
// that parse it); refinements JSON Schema cannot say (a `check`, a character count) are left out,
// and the 400 they answer names the field.
import { toJsonSchema, type ConversionConfig, type JsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { API_OPERATIONS, type ApiOperation } from "./routes";
import * as r from "./responses";

/** Response shapes named once under components.schemas and referenced from each operation. */
const COMPONENTS = {
  Error: r.ErrorSchema,
  User: r.UserSchema,
  UserRef: r.UserRefSchema,
  TagRef: r.TagRefSchema,
  Profile: r.ProfileSchema,
  Echo: r.EchoSchema,
  Highlights: r.HighlightsSchema,
  Pagination: r.PaginationSchema,
  CursorPagination: r.CursorPaginationSchema,
  EchoPage: r.EchoPageSchema,
  Scroll: r.ScrollSchema,
  Tag: r.TagSchema,
  Notification: r.NotificationSchema,
  NotificationPage: r.NotificationPageSchema,
  Why: r.WhySchema,
  Ok: r.OkSchema,
  Deleted: r.DeletedSchema,
  Like: r.LikeSchema,
  Export: r.ExportSchema,
} satisfies Record<string, v.GenericSchema>;

const CONFIG: ConversionConfig = {
  target: "draft-2020-12",
  typeMode: "input",
  // a `check` or `transform` has no JSON Schema: the document keeps the type and drops the rule
  errorMode: "ignore",
  definitions: COMPONENTS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/** The JSON Schema of one schema, its named parts as references to components. */
function jsonSchema(schema: v.GenericSchema): JsonSchema {
  const { $schema: _, $defs: __, ...rest } = toJsonSchema(schema, CONFIG);
  return rest;
}

/** "echo/echo/:id" → "/api/echo/echo/{id}" */
export const openApiPath = (route: string) => `/api/${route.replace(/:(\w+)/g, "{$1}")}`;

const ERRORS = {
  "4XX": "Bad input (400, the message names the field), not signed in (401), not allowed (403), not found (404), wrong method (405), conflict (409), body over 64 KB (413), a body that is not `Content-Type: application/json` (415), too many requests (429)",
  "5XX": "The store is unavailable (503, with Retry-After), or an unexpected failure (500)",
};

function operation(op: ApiOperation) {
  const parameters = [
    ...Object.entries(op.params ?? {}).map(([name, description]) => ({ name, in: "path", required: true, description, schema: { type: "string" } })),
    ...Object.entries(op.query?.entries ?? {}).map(([name, schema]) => {
      const { description, ...rest } = jsonSchema(schema as v.GenericSchema);
      return { name, in: "query", required: false, ...(description ? { description } : {}), schema: rest };
    }),
  ];
  const responses: Record<string, unknown> = op.upgrade ? { "101": { description: op.upgrade } } : {};
  for (const [status, schema] of Object.entries(op.responses)) {
    responses[status] = { description: "Success", content: { "application/json": { schema: jsonSchema(schema) } } };
  }
  for (const [range, description] of Object.entries(ERRORS)) {
    responses[range] = { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  }
  return {
    operationId: `${op.method.toLowerCase()}_${op.route.replace(/[^a-z0-9]+/gi, "_")}`,
    summary: op.summary,
    tags: [op.tag],
    "x-echo-route": op.route,
    ...(op.auth ? { security: [{ session: [] }] } : { security: [] }),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.body) } } } } : {}),
    responses,
  };
}

function build() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of API_OPERATIONS) (paths[openApiPath(op.route)] ??= {})[op.method.toLowerCase()] = operation(op);
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    // a component's own body, not a reference to itself
    const others = Object.fromEntries(Object.entries(COMPONENTS).filter(([other]) => other !== name));
    const { $schema: _, $defs: __, ...body } = toJsonSchema(schema, { ...CONFIG, definitions: others });
    schemas[name] = body;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Echo API",
      version: "1",
      description:
        "The public HTTP API of Echo: JSON in and out, a cookie session (`echo_session`, set by sign-up and login). A request body must be sent as `Content-Type: application/json` (UTF-8; anything else is 415); a call without a body needs none. Writes from a browser must come from the same origin. `OPTIONS` on any path answers 204 with `Allow` (its methods) and runs nothing. Errors are `{ error, message }` with the same sentence in both.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas,
      securitySchemes: { session: { type: "apiKey", in: "cookie", name: "echo_session" } },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof build>;

let built: OpenApiDocument | undefined;
/** The document, made once per isolate (it never changes while the code does not). */
export function openApiDocument(): OpenApiDocument {
  built ??= build();
  return built;
}
