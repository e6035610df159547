import { toNextJsHandler } from 'better-auth/next-js';
import { auth } from '@/lib/auth/better-auth';
import { crossSiteCheck } from '@/lib/auth/access';

export const dynamic = 'force-dynamic';

// Better Auth's endpoints (sign-in, sign-out, session): its own origin check, rate limit and cookies; a
// cross-site POST is refused here first, like every state-changing route handler's. Sign-up is off:
// accounts come from an admin (lib/auth/users.ts).
const handlers = toNextJsHandler(async (req: Request) => (await auth()).handler(req));

export const GET = handlers.GET;

export async function POST(req: Request): Promise<Response> {
  const refused = crossSiteCheck(req.method, req.headers);
  if (refused) return Response.json({ ok: false, error: refused }, { status: 403 });
  return handlers.POST(req);
}
