"""Provider batches: a run's pending calls submitted as one batch (OpenAI Batch API,
Anthropic Message Batches, Gemini batch mode), polled, and collected into the run file as the same
records a live run writes.

The state of a run's batches is a small JSON file beside the run file (`<run>.batch.json`),
rewritten atomically before and after every step, so a process killed at any point loses nothing:

1. the intent: which case each custom id stands for, written before any request leaves;
2. `create_started_at`, written just before the create call: a restart that finds it without a
   batch id looks for the batch it may have made (OpenAI: the batch's `metadata`; Gemini: its
   display name; Anthropic, whose batches carry neither: one batch created since then with the
   same number of requests) before it creates one, so a call is never submitted twice;
3. the batch id, as soon as the provider gives it;
4. polls update the provider's status; an ended batch is collected: each result becomes a record
   (appended and synced one by one; a restart skips the cases already recorded), then the entry
   is marked collected.

Request bodies are the live ones: `reading.read_request` and each adapter's `build` make them.

The modules: `state` (the state file), `service` (the one gate to the services) and `replies`
(reading what they say), `job` (a run file's batches: submit, poll, collect, cancel; `batch
status` and `batch cancel`), `submit` (`run --batch`: the calls prepared and split into
batches). Each provider's protocol is beside its adapter (`providers/openai_batch.py`,
`anthropic_batch.py`, `google_batch.py`).
"""
