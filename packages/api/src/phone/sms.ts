/**
 * Sending an SMS (decision 0048). The host gives one to the services (`ApiDeps.sms`): the HTTP
 * provider configured by SMS_API_URL and SMS_API_KEY, or the development sink that writes each
 * message under DATA_DIR/sms (apps/server/src/sms.ts). A send that fails throws; the caller decides.
 */
export interface SmsSender {
  send(message: { to: string; text: string }): Promise<void>;
}

/** A sender that keeps what it was given, in order (tests read the codes from it). */
export function createRecordingSms(): SmsSender & { sent: Array<{ to: string; text: string }> } {
  const sent: Array<{ to: string; text: string }> = [];
  return {
    sent,
    async send(message) {
      sent.push({ ...message });
    },
  };
}
