// The revision's reusable contents as the preview's `{% include %}` tags need them: each one's text as stored (the
// API's `markdown`) and the Git path includes name it by (`path`, or the blob's path).
import type { IncludeSource } from '../../../../src-shared/blockTags.ts'
import type { Revision } from '../../api/types.ts'

export function includeSources(contents: Revision['reusableContents']): IncludeSource[] {
  return contents.map((content) => {
    const gitPath = content.path ?? content.git?.path
    return { title: content.title, markdown: content.markdown ?? '', ...(gitPath ? { gitPath } : {}) }
  })
}
