export interface HaReply {
  status: number;
  body: any;
}
export interface DiscoveryMessage {
  addon: string;
  service: string;
  uuid: string;
  config: Record<string, unknown>;
}
export function haRequest(
  haUrl: string,
  token: string,
  path: string,
  opts?: { method?: string; json?: unknown; headers?: Record<string, string> },
): Promise<HaReply>;
export function haCommand<T = any>(haUrl: string, token: string, command: Record<string, unknown>, timeoutMs?: number): Promise<T>;
export function handToHomeAssistant(haUrl: string, token: string, message: DiscoveryMessage, addonName: string): Promise<void>;
export function flowInProgress(haUrl: string, token: string, handler: string, uniqueId?: string, timeoutMs?: number): Promise<any>;
export function flowStep(haUrl: string, token: string, flowId: string, input?: Record<string, unknown>, headers?: Record<string, string>): Promise<HaReply>;
export function entriesOf(haUrl: string, token: string, domain: string): Promise<any[]>;
export function removeEntry(haUrl: string, token: string, entryId: string): Promise<HaReply>;
export function ensureMcpServer(haUrl: string, token: string): Promise<void>;
export function addDiscovered(haUrl: string, token: string, message: DiscoveryMessage, addonName?: string): Promise<{ flow: any; result: any }>;
export function haMcp(haUrl: string, token: string, apiId: string, method: string, params?: Record<string, unknown>, id?: number): Promise<HaReply>;
export function bridgeResultOf(haResult: { content?: { type: string; text: string }[] }): any;
