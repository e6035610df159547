import { z } from 'zod';

// In the browser, before the app's code: zod parses without compiling code at run time. Its compiled
// fast path first probes `new Function`, which the content security policy (no 'unsafe-eval') refuses —
// a violation on every page that parses an object. The server keeps the fast path.
z.config({ jitless: true });
