// Child process entry of the content benchmark: builds the 10,000-page space into a workspace folder, reports
// what the load generator needs over IPC, and exits. The parent never holds the build's memory (~100 MB of page
// records and caches): its garbage collections, 25–40 ms each over that heap, would land in the latencies it times.
import { bootstrapWorkspace, openWorkspace } from '../src-main/workspace/workspace'
import { buildContentSpace } from './contentData'

/** What the parent needs of the built space (plain data: it crosses the IPC channel). */
export interface BuiltSpace {
  organizationId: string
  spaceId: string
  leafIds: string[]
  /** The vocabulary's words, most frequent first. */
  words: string[]
  millis: number
}

async function main() {
  const [dataDir, token, pages] = process.argv.slice(2)
  const workspace = openWorkspace({ dataDir: dataDir!, searchThreads: 0 })
  const boot = bootstrapWorkspace(workspace.services, token)
  const built = buildContentSpace(workspace.services, { organizationId: boot.organizationId!, owner: boot.owner, pages: Number(pages) })
  await workspace.close()
  const result: BuiltSpace = {
    organizationId: boot.organizationId!,
    spaceId: built.spaceId,
    leafIds: built.leafIds,
    words: built.vocabulary.words,
    millis: built.millis
  }
  process.send!(result, () => process.exit(0))
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
