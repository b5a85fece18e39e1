import { useEffect } from 'react'

/** What e2e tests and tools wait on: `[data-app-state="ready"]` on #root. Never wait with sleeps. */
export type AppState = 'loading' | 'ready' | 'error' | 'signed-out'

export function useReportAppState(state: AppState): void {
  useEffect(() => {
    const root = document.getElementById('root')
    if (root) root.dataset.appState = state
  }, [state])
}
