// Messages to an occurrence's reporter, in the caller's transaction: a
// template is rendered for the occurrence as it is now, recorded on its
// timeline, occurrence.message_sent is emitted, and an email message to a
// reporter with an address is written to the mail plugin's outbox when the
// manifest loads it (otherwise a workflow on the event delivers it). Staff
// apply a template by hand (`send`); when an occurrence enters a state (its
// creation in the initial state, a transition) every send_on_enter template
// for its type and the new state is applied by itself (`onEnter`), so a
// rollback of the change records and sends nothing.
import type { CoreServices, TenantTransaction } from 'agent-platform/sdk';
import type { MailApi } from '../../mail/api.ts';
import { render } from '../domain/render.ts';
import { OCCURRENCE_MESSAGE_SENT } from '../event-types.ts';
import type { OccurrencesOptions } from '../options.ts';
import { messagesStore } from '../store/messages.ts';
import type { OccurrenceRow } from '../store/occurrences.ts';
import { statesStore } from '../store/states.ts';
import { templatesStore, type TemplateRow } from '../store/templates.ts';
import { typesStore } from '../store/types.ts';

/** The outbox origin of template messages: origin_id is the message's id. */
export const MAIL_ORIGIN = 'occurrences.message';

/** The tracking URL with `{tenant}` and `{reference}` replaced (a URL without `{tenant}` keeps working). */
export const trackingLink = (url: string, tenantId: string, reference: string) =>
  url.replaceAll('{tenant}', encodeURIComponent(tenantId)).replaceAll('{reference}', encodeURIComponent(reference));

/** Whether a template is for this occurrence's type and state (empty lists: every one). */
export const applies = (t: TemplateRow, row: OccurrenceRow) =>
  (t.type_ids.length === 0 || t.type_ids.map(Number).includes(row.type_id)) && (t.states.length === 0 || t.states.includes(row.state));

/** The mail plugin's refusal of a message (a bad address, an oversized subject), raised before it writes anything. */
const mailRefused = (err: unknown) => (err as { output?: { payload?: { code?: string } } }).output?.payload?.code === 'MAIL_INVALID';

export function createMessaging(core: CoreServices, options: OccurrencesOptions, mail: () => MailApi | undefined) {
  async function variables(trx: TenantTransaction, tenantId: string, row: OccurrenceRow) {
    await statesStore.ensureSeeded(trx, tenantId);
    const [type, states] = await Promise.all([typesStore.find(trx, row.type_id), statesStore.states(trx)]);
    return {
      id: row.id, reference: row.reference, title: row.title, description: row.description, address: row.address,
      latitude: row.latitude, longitude: row.longitude, state: row.state, state_label: states.find((s) => s.key === row.state)?.label ?? row.state,
      type_name: type?.name ?? null, type_code: type?.code ?? null, created_at: row.created_at.toISOString(), reporter_name: row.reporter_name,
      tracking_link: trackingLink(options.trackingUrl, tenantId, row.reference),
    };
  }

  /**
   * Applies a template to the occurrence: the message, its outbox row (email
   * to a reporter with an address) and the event. `automatic`: an outbox
   * refusal of the address records the message without mail (a staff move
   * never fails for a reporter's address); by hand it is the caller's 400.
   */
  async function send(trx: TenantTransaction, tenantId: string, row: OccurrenceRow, template: TemplateRow, actor: string | null, automatic = false) {
    const values = await variables(trx, tenantId, row);
    const message = await messagesStore.insert(trx, tenantId, {
      occurrence_id: row.id, template_id: template.id, channel: template.channel, subject: render(template.subject, values), body: render(template.body, values),
      created_by: actor, created_at: core.clock.now(),
    });
    const recipient = template.channel === 'email' ? row.reporter_email : template.channel === 'sms' ? row.reporter_phone : null;
    const outbox = mail();
    if (template.channel === 'email' && recipient && outbox) {
      try {
        await outbox.send(trx, tenantId, { to: recipient, subject: message.subject, text: message.body, origin: MAIL_ORIGIN, originId: String(message.id) });
      } catch (err) {
        if (!automatic || !mailRefused(err)) throw err;
        core.logger.warn({ tenantId, occurrenceId: row.id, templateId: template.id, messageId: message.id }, 'occurrences: the outbox refused an automatic message; recorded without e-mail');
      }
    }
    await core.events.emit(trx, tenantId, {
      type: OCCURRENCE_MESSAGE_SENT, source: `/occurrences/${row.id}`,
      data: {
        occurrence_id: row.id, reference: row.reference, message_id: message.id, template_id: template.id, channel: template.channel,
        recipient: recipient || null, subject: message.subject, body: message.body,
      },
    });
    return message;
  }

  return {
    variables,
    send,

    /**
     * The occurrence (as it is now, in its new state) has just entered its
     * state: every send_on_enter template for its type and that state is
     * applied, in name order, with no author (`created_by` null). The ids of
     * the messages recorded.
     */
    async onEnter(trx: TenantTransaction, tenantId: string, row: OccurrenceRow): Promise<number[]> {
      const templates = await templatesStore.onEnter(trx, row.type_id, row.state);
      const ids: number[] = [];
      for (const template of templates) ids.push((await send(trx, tenantId, row, template, null, true)).id);
      return ids;
    },
  };
}

export type Messaging = ReturnType<typeof createMessaging>;
