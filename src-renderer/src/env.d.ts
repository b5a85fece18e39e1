import type { QuireBridge } from '../../src-shared/ipc.ts'

declare global {
  interface Window {
    /** Present only in the desktop app (exposed by the preload). */
    quire?: QuireBridge
  }
}
