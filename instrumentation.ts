/**
 * Runs once when the server starts (`npm start`, `next start`, each Vercel instance). The import sits under the
 * runtime check itself, so that the Edge build of this file leaves the Node-only start-up (lib/http/start-up.ts) out.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const [{ startUp }, { getDatabase }, { startMailSender }, { startJobRunner }, { startWebhookSender }] =
      await Promise.all([
        import('@/lib/http/start-up'),
        import('./db/client'),
        import('@/lib/mail'),
        import('@/lib/jobs'),
        import('@/lib/webhooks'),
      ]);
    await startUp(getDatabase);
    // Mail that is due (retries, mail queued by another process) is sent every half minute while the server
    // runs; on Vercel the kick after each response that queued mail does the sending (lib/mail/sender.ts).
    startMailSender();
    // Jobs likewise (alerts after imports by other processes), and the hourly scan of every account for alerts.
    startJobRunner();
    // Webhook deliveries, every few seconds: their retries are due 5 s after a first failure.
    startWebhookSender();
  }
}
