import { type ActionHandler, answer } from '../../helpers/fakeActionServer.js';

/**
 * The Python actions of rasa-rime-voice-demo, as a Rasa action server would answer them: the
 * balance of the account asked for, a transfer that goes through, a card that gets blocked.
 */
export const RIME_ACTIONS: Readonly<Record<string, ActionHandler>> = {
  action_get_account_balance: ({ body }) => {
    const account = body?.tracker?.slots?.account_type;
    return answer([
      {
        event: 'slot',
        name: 'account_balance',
        value: account === 'savings' ? '$8,400.00' : '$1,250.00',
      },
    ]);
  },
  action_process_transfer: () => answer(),
  action_block_card: () => answer([{ event: 'slot', name: 'card_blocked', value: true }]),
  action_get_transactions: () => answer(),
};
