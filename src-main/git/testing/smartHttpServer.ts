// Test-only: a tiny Git "smart HTTP" server over bare repositories on disk, built on isomorphic-git (no git
// binary). It speaks just what isomorphic-git's client uses: protocol v1 ref advertisement, upload-pack (fetch
// and clone, always a full pack of what the client lacks) and receive-pack (push, with report-status), both
// over side-band-64k. Optional HTTP basic auth. Not a production server: no shallow, no deltas, no hooks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import * as fs from 'node:fs'
import { join } from 'node:path'
import git from 'isomorphic-git'

export interface SmartHttpServer {
  /** `http://127.0.0.1:<port>` — repositories are at `<url>/<name>.git`. */
  url: string
  /** Every request seen: method, path and the Authorization header as sent (to check what crossed the wire). */
  requests: { method: string; path: string; authorization?: string }[]
  close(): Promise<void>
}

export interface SmartHttpOptions {
  /** name (as in the URL, e.g. `docs.git`) → bare repository folder */
  repos: Record<string, string>
  auth?: { username: string; password: string }
}

const ZERO = '0000000000000000000000000000000000000000'

const pkt = (data: string | Buffer): Buffer => {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'ascii'), body])
}
const FLUSH = Buffer.from('0000', 'ascii')

/** Splits pkt-lines off the front of a buffer; returns the lines (null for flush) and the rest (a pack). */
function readPktLines(buf: Buffer): { lines: (string | null)[]; rest: Buffer } {
  const lines: (string | null)[] = []
  let at = 0
  while (at + 4 <= buf.length) {
    if (buf.subarray(at, at + 4).toString('ascii') === 'PACK') break
    const len = parseInt(buf.subarray(at, at + 4).toString('ascii'), 16)
    if (Number.isNaN(len)) break
    if (len === 0) {
      lines.push(null)
      at += 4
      continue
    }
    lines.push(buf.subarray(at + 4, at + len).toString('utf8'))
    at += len
  }
  return { lines, rest: buf.subarray(at) }
}

/** Band-1 side-band packets carrying `data`, at most 65515 bytes each. */
function sideBand(data: Buffer): Buffer[] {
  const out: Buffer[] = []
  for (let i = 0; i < data.length; i += 65515) out.push(pkt(Buffer.concat([Buffer.from([1]), data.subarray(i, i + 65515)])))
  return out
}

async function refsOf(gitdir: string): Promise<{ ref: string; oid: string }[]> {
  const out: { ref: string; oid: string }[] = []
  try {
    out.push({ ref: 'HEAD', oid: await git.resolveRef({ fs, gitdir, ref: 'HEAD' }) })
  } catch {
    // an empty repository: HEAD names a branch that does not exist yet
  }
  for (const branch of await git.listBranches({ fs, gitdir })) {
    out.push({ ref: `refs/heads/${branch}`, oid: await git.resolveRef({ fs, gitdir, ref: `refs/heads/${branch}` }) })
  }
  return out
}

/** Every object reachable from `oids` (commits, their trees and blobs), skipping what `stop` holds. */
async function reachable(gitdir: string, oids: string[], stop = new Set<string>()): Promise<Set<string>> {
  const seen = new Set<string>()
  const commits = [...oids]
  const visitTree = async (oid: string) => {
    if (seen.has(oid) || stop.has(oid)) return
    seen.add(oid)
    const { tree } = await git.readTree({ fs, gitdir, oid })
    for (const entry of tree) {
      if (entry.type === 'tree') await visitTree(entry.oid)
      else if (entry.type === 'blob' && !stop.has(entry.oid)) seen.add(entry.oid)
    }
  }
  while (commits.length) {
    const oid = commits.pop()!
    if (seen.has(oid) || stop.has(oid)) continue
    seen.add(oid)
    const { commit } = await git.readCommit({ fs, gitdir, oid })
    await visitTree(commit.tree)
    commits.push(...commit.parent)
  }
  return seen
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

async function advertise(res: ServerResponse, gitdir: string, service: string) {
  const refs = await refsOf(gitdir)
  const head = await git.resolveRef({ fs, gitdir, ref: 'HEAD', depth: 1 }).catch(() => undefined)
  const caps =
    service === 'git-upload-pack'
      ? ['side-band-64k', 'no-thin', ...(head?.startsWith('refs/') ? [`symref=HEAD:${head}`] : []), 'agent=quire-test']
      : ['report-status', 'side-band-64k', 'no-thin', 'delete-refs', 'agent=quire-test']
  // Receive-pack advertises branches only; upload-pack HEAD too.
  const list = service === 'git-upload-pack' ? refs : refs.filter((r) => r.ref !== 'HEAD')
  const lines = [pkt(`# service=${service}\n`), FLUSH]
  if (!list.length) lines.push(pkt(`${ZERO} capabilities^{}\0${caps.join(' ')}\n`))
  list.forEach((r, i) => lines.push(pkt(`${r.oid} ${r.ref}${i === 0 ? `\0${caps.join(' ')}` : ''}\n`)))
  lines.push(FLUSH)
  res.writeHead(200, { 'content-type': `application/x-${service}-advertisement`, 'cache-control': 'no-cache' })
  res.end(Buffer.concat(lines))
}

async function uploadPack(req: IncomingMessage, res: ServerResponse, gitdir: string) {
  const { lines } = readPktLines(await body(req))
  const wants: string[] = []
  const haves: string[] = []
  for (const line of lines) {
    if (!line) continue
    const [verb, oid] = line.trim().split(' ')
    if (verb === 'want') wants.push(oid!)
    if (verb === 'have') haves.push(oid!)
  }
  // What the client says it has (and this repository knows) is not sent again.
  const known: string[] = []
  for (const oid of haves)
    if (
      await git.readObject({ fs, gitdir, oid }).then(
        () => true,
        () => false
      )
    )
      known.push(oid)
  const stop = await reachable(gitdir, known)
  const oids = [...(await reachable(gitdir, wants, stop))]
  const { packfile } = await git.packObjects({ fs, gitdir, oids, write: false })
  res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-result', 'cache-control': 'no-cache' })
  res.end(Buffer.concat([pkt('NAK\n'), ...sideBand(Buffer.from(packfile!)), FLUSH]))
}

async function receivePack(req: IncomingMessage, res: ServerResponse, gitdir: string) {
  const { lines, rest } = readPktLines(await body(req))
  const commands = lines
    .filter((l): l is string => !!l)
    .map((l) => {
      const [old, next, ref] = l.split('\0')[0]!.trim().split(' ')
      return { old: old!, next: next!, ref: ref! }
    })
  let unpack = 'unpack ok\n'
  if (rest.length > 32) {
    const name = `pack-${rest.subarray(rest.length - 20).toString('hex')}.pack`
    fs.writeFileSync(join(gitdir, 'objects', 'pack', name), rest)
    try {
      await git.indexPack({ fs, dir: gitdir, gitdir, filepath: join('objects', 'pack', name) })
    } catch (error) {
      unpack = `unpack ${(error as Error).message}\n`
    }
  }
  const report: Buffer[] = [pkt(unpack)]
  for (const c of commands) {
    const current = await git.resolveRef({ fs, gitdir, ref: c.ref }).catch(() => ZERO)
    if (current !== c.old) {
      report.push(pkt(`ng ${c.ref} fetch first\n`))
    } else if (c.next === ZERO) {
      await git.deleteRef({ fs, gitdir, ref: c.ref })
      report.push(pkt(`ok ${c.ref}\n`))
    } else {
      await git.writeRef({ fs, gitdir, ref: c.ref, value: c.next, force: true })
      report.push(pkt(`ok ${c.ref}\n`))
    }
  }
  report.push(FLUSH)
  res.writeHead(200, { 'content-type': 'application/x-git-receive-pack-result', 'cache-control': 'no-cache' })
  res.end(Buffer.concat([...sideBand(Buffer.concat(report)), FLUSH]))
}

export async function startSmartHttpServer(options: SmartHttpOptions): Promise<SmartHttpServer> {
  const requests: SmartHttpServer['requests'] = []
  const expected = options.auth && `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    requests.push({ method: req.method ?? 'GET', path: url.pathname, authorization: req.headers.authorization })
    const handle = async () => {
      if (expected && req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' })
        return res.end('authentication required')
      }
      const match = /^\/([^/]+)\/(info\/refs|git-upload-pack|git-receive-pack)$/.exec(url.pathname)
      const gitdir = match && options.repos[match[1]!]
      if (!match || !gitdir) {
        res.writeHead(404)
        return res.end('not found')
      }
      if (match[2] === 'info/refs') {
        const service = url.searchParams.get('service')
        if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
          res.writeHead(403)
          return res.end('smart HTTP only')
        }
        return advertise(res, gitdir, service)
      }
      if (req.method !== 'POST') {
        res.writeHead(405)
        return res.end()
      }
      return match[2] === 'git-upload-pack' ? uploadPack(req, res, gitdir) : receivePack(req, res, gitdir)
    }
    handle().catch((error) => {
      if (!res.headersSent) res.writeHead(500)
      res.end(String((error as Error).message))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
