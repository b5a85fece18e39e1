import { useReportAppState } from '../../app/appState.ts'

/** Call from a screen once its data rendered: e2e tests and tools wait on `[data-app-state="ready"]`. */
export function useScreenReady(): void {
  useReportAppState('ready')
}
