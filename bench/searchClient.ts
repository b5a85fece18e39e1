// A client process of its own for the content benchmark's timed searches (bench/content.ts, timeInChild): it
// sends GET requests one after another, times each from the request to the answer's last byte, and reports the
// times with how late its own timer ran meanwhile. The benchmark's main process has waited through the space's
// build and holds its results, and its own stalls were timed as the server's: its timer ran 42 ms late at p99
// during the 100,000-page space searches, where a fresh client's ran ~10 ms late.
import { monitorEventLoopDelay } from 'node:perf_hooks'

export interface SearchClientJob {
  urls: string[]
  token: string
  /** Rounds timed after one untimed round over every URL. */
  rounds: number
  stallTimerMs: number
}

export interface SearchClientReport {
  times?: number[]
  /** Percentile 99 and maximum of this process's timer lateness, in nanoseconds of the whole interval. */
  stallP99Ns?: number
  stallMaxNs?: number
  error?: string
}

process.once('message', async (job: SearchClientJob) => {
  const report = (message: SearchClientReport) => process.send!(message, () => process.exit(message.error ? 1 : 0))
  const stalls = monitorEventLoopDelay({ resolution: job.stallTimerMs })
  const times: number[] = []
  try {
    for (let round = 0; round <= job.rounds; round++) {
      if (round === 1) stalls.enable()
      for (const url of job.urls) {
        const started = performance.now()
        const res = await fetch(url, { headers: { authorization: `Bearer ${job.token}` } })
        const text = await res.text()
        const ms = performance.now() - started
        if (res.status !== 200) return report({ error: `GET ${url}: ${res.status} ${text.slice(0, 300)}` })
        if (round > 0) times.push(ms)
      }
    }
    stalls.disable()
    report({ times, stallP99Ns: stalls.percentile(99), stallMaxNs: stalls.max })
  } catch (error) {
    report({ error: String(error) })
  }
})
