// Stands in for Ajv and ajv-formats in the handler bundles. The MCP SDK's client imports them for
// its default output validator; Switchboard gives every client its own validator, so this never
// runs. If it does, something built an MCP client without one.
export default function ajvLeftOut() {
  throw new Error('Ajv is not in this bundle: give the MCP client a jsonSchemaValidator');
}
