/**
 * Where Quire's answers knowingly differ from the published API document: each entry names the operations, the
 * place in the answer and the schema's complaint it excuses, and says why (the same reasons are listed in
 * docs/api-behaviour.md, "Deviations from the published document"). Keep this list short and argued.
 */
export interface ContractException {
  /** Matched against `METHOD /published/template`. */
  operation: RegExp
  /** Matched against the JSON pointer of the complaint (e.g. `/pages/0`). */
  instancePath: RegExp
  /** Matched against the schema's message (e.g. `must have required property 'document'`). */
  message: RegExp
  reason: string
}

export const CONTRACT_EXCEPTIONS: ContractException[] = [
  {
    operation: /^(GET|POST|PATCH) \/orgs\/\{organizationId\}\/saml/,
    instancePath: /^(\/items\/\d+)?$/,
    message: /^must have required property '(ssoURL|entityID|certificate)'$/,
    reason:
      'A provider is created from a label alone and configured later (status pending): until then it has no sign-in URL, ' +
      'entity ID or certificate, and an empty string would not be a URL (ssoURL is format uri) nor true.'
  },
  {
    operation: /^(GET|POST|PATCH) \/(integrations|orgs\/\{organizationId\}\/installations)/,
    instancePath: /\/urls$/,
    message: /^must have required property 'public(Content)?Endpoint'$/,
    reason: 'Integrations run no code in Quire: no integration or installation has a public HTTP endpoint to name.'
  },
  {
    operation: /^(GET|PUT) \/orgs\/\{organizationId\}\/sites\/\{siteId\}\/(customization|published)$/,
    instancePath: /\/styling$/,
    message: /^must have required property 'monospaceFont'$/,
    reason: "The preview sets code in the reader's system monospace font: none of the listed fonts, and no font file to describe."
  },
  {
    operation: /^GET \/spaces\/\{spaceId\}\/git\/info$/,
    instancePath: /^\/installationProvider$/,
    message: /^must be equal to one of the allowed values$/,
    reason: 'Quire syncs any Git repository: one on neither GitHub nor GitLab is `git`, which the published enum lacks.'
  }
]
