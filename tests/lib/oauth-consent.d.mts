export function consent(
  authorizationUrl: URL | string,
  opts?: { username?: string; password?: string; decision?: 'approve' | 'deny'; scopes?: string[] },
): Promise<{ status: number; location: string | null; page: string }>;
