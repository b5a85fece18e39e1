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
    operation: /./,
    instancePath: /\/gitSync\/installationProvider$/,
    message: /^must be equal to one of the allowed values$/,
    reason:
      'Quire syncs a space with any Git repository (a path, a self-hosted server), not only the hosted providers the ' +
      'document enumerates (github, gitlab, github-legacy): such a space says `git` rather than name a provider it is not on.'
  }
]
