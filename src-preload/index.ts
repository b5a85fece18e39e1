// The whole desktop bridge: one small typed object, never a raw ipcRenderer (sandboxed, context-isolated).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { IpcChannel, type BridgeRequest, type BridgeResponse, type DataChangedEvent, type QuireBridge } from '../src-shared/ipc.ts'

const quire: QuireBridge = {
  request(req: BridgeRequest): Promise<BridgeResponse> {
    // Copy only the known fields so nothing else from the page crosses into main.
    const { method, path, headers, body } = req
    return ipcRenderer.invoke(IpcChannel.apiRequest, { method, path, headers, body }) as Promise<BridgeResponse>
  },
  onDataChanged(callback: (event: DataChangedEvent) => void): () => void {
    const listener = (_event: IpcRendererEvent, payload: DataChangedEvent) => callback(payload)
    ipcRenderer.on(IpcChannel.dataChanged, listener)
    return () => {
      ipcRenderer.removeListener(IpcChannel.dataChanged, listener)
    }
  }
}

contextBridge.exposeInMainWorld('quire', quire)
