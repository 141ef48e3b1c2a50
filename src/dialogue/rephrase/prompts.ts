/**
 * The rephrase prompt used when endpoints.yml names none. Its variables are those a Rasa project's
 * own rephrase prompt uses: `history`, `current_input`, `suggested_response`, `slots`, `language`.
 */
export const DEFAULT_REPHRASE_PROMPT = `You are polishing a message that an AI assistant is about to send to a user.
Rewrite the suggested message so that it reads naturally after the conversation below. Keep its
meaning and every fact it states (names, numbers, dates, prices, options); add nothing new and
drop no question. Write plain {{ language }}, about as long as the suggested message, and answer
with the rewritten message only.

Recent conversation:
{{ history }}

Latest user message:
{{ current_input }}

Suggested message: {{ suggested_response }}

Rewritten message:`;

/** Asks for the summary that stands for the history when `summarize_history` is on. */
export const SUMMARY_PROMPT = `Summarize the conversation below between a user and an AI assistant in a few short
sentences: what the user wants and what has been settled so far.

Conversation:
{{ conversation }}

Summary:`;
