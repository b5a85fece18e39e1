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
    operation: /^GET \/(spaces\/\{spaceId\}|orgs\/\{organizationId\})\/search$/,
    instancePath: /\/sections\/\d+\/urls\/app$/,
    message: /^must match format "uri"$/,
    reason:
      "The app's addresses are hash routes (`…/#/spaces/{id}/pages/{id}`); a section's address gives the heading's anchor " +
      'as the route\'s own fragment (`…#anchor`), which the app\'s router reads and a strict URI parser refuses (a second `#`).'
  }
]
