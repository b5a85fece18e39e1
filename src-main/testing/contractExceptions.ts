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

/**
 * A deviation the schema's complaints cannot be matched for (a member missing inside a `oneOf` makes every branch
 * complain): the answer is checked as `amend` fills in what Quire leaves out, on a copy, so anything else in it
 * still fails.
 */
export interface ContractAmendment {
  /** Matched against `METHOD /published/template`. */
  operation: RegExp
  amend(body: unknown): unknown
  reason: string
}

/** Every page of the `pages` arrays under `value` (at any depth; not a page read on its own) given an empty `markdown`. */
function withListedDocuments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withListedDocuments)
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) {
    out[key] =
      key === 'pages' && Array.isArray(member)
        ? member.map((page) => {
            const amended = withListedDocuments(page) as Record<string, unknown>
            return 'markdown' in amended || 'document' in amended ? amended : { ...amended, markdown: '' }
          })
        : withListedDocuments(member)
  }
  return out
}

/** A revision's `git.createdByService` under the published key (named after the service). */
function withPublishedGitFlag(body: unknown): unknown {
  const revision = body as { git?: Record<string, unknown> } | undefined
  if (!revision?.git || !('createdByService' in revision.git)) return body
  const { createdByService, ...git } = revision.git
  return { ...revision, git: { ...git, createdByGitBook: createdByService } }
}

export const CONTRACT_AMENDMENTS: ContractAmendment[] = [
  {
    operation: /^GET \/spaces\/\{spaceId\}\/(content|change-requests\/\{changeRequestId\}\/content|revisions\/\{revisionId\})$/,
    amend: withPublishedGitFlag,
    reason:
      "A revision's `git.createdByService` says what the published document calls by the service's name: brand words stay out of Quire's wire keys."
  },
  {
    // The content, page-tree and page reads of a space, a change request or a revision.
    operation:
      /^GET \/spaces\/\{spaceId\}\/(content|change-requests\/\{changeRequestId\}\/content|revisions\/\{revisionId\})(\/pages|\/page\/\{pageId\}|\/path\/\{pagePath\})?$/,
    amend: withListedDocuments,
    reason:
      'The published page wants its whole document (`markdown` or `document`) in every page of a tree or revision; ' +
      "Quire lists pages without documents (a 10,000-page tree would carry every text) and gives a page's document " +
      'when that page is read.'
  }
]

export const CONTRACT_EXCEPTIONS: ContractException[] = [
  {
    operation: /./,
    instancePath: /\/gitSync\/installationProvider$/,
    message: /^must be equal to one of the allowed values$/,
    reason:
      'Quire syncs a space with any Git repository (a path, a self-hosted server), not only the hosted providers the ' +
      'document enumerates (github, gitlab, github-legacy): such a space says `git` rather than name a provider it is not on.'
  },
  {
    operation: /^GET \/(spaces\/\{spaceId\}|orgs\/\{organizationId\})\/search$/,
    instancePath: /\/sections\/\d+\/urls\/app$/,
    message: /^must match format "uri"$/,
    reason:
      "The app's addresses are hash routes (`…/#/spaces/{id}/pages/{id}`); a section's address gives the heading's anchor " +
      "as the route's own fragment (`…#anchor`), which the app's router reads and a strict URI parser refuses (a second `#`)."
  },
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

/**
 * Places where the published document cannot be met by any answer: each is corrected in the copy the check
 * compiles, with the reason.
 */
export interface ContractSchemaFix {
  /** The component schema corrected. */
  schema: string
  fix(schema: Record<string, any>): void
  reason: string
}

export const CONTRACT_SCHEMA_FIXES: ContractSchemaFix[] = [
  {
    schema: 'RevisionSemanticChangePageEdited',
    fix: (schema) => {
      const attributes = schema.properties.attributes
      attributes.anyOf = attributes.oneOf
      delete attributes.oneOf
    },
    reason:
      "An edited page's `attributes` must match exactly one of the document, group and link attribute sets, but they " +
      'share `title`, `emoji` and `slug` and admit other members: any document page edit matches two. Checked as any of them.'
  }
]
