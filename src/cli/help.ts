import os from 'node:os';

/** The help texts of `docex` and its commands. */

const EXIT_CODES = `Exit codes:
  0    every file was read
  1    some file failed (its line carries the error), or the output could not be written
  2    usage error: unknown command or option, bad value, no input file, unknown product, invalid
       rules; nothing was read
  130  interrupted (Ctrl-C): the output holds whole lines of the files that finished`;

const INPUTS = `Inputs: files, directories (walked recursively for .pdf, .png, .jpg, .jpeg, .tif, .tiff and .gif files) and glob
patterns, quoted so that docex expands them: 'invoices/**/*.pdf' (* ? [abc] {a,b} and ** for any
number of directories). Names starting with a dot are left out of directories, and of patterns unless
the pattern names the dot. A file given twice is read once. A file is recognised by its bytes, not
its name: anything else gives an error line.`;

const batchOptions = (): string => `Batch options:
  --out FILE          write the lines to FILE instead of stdout; each line is appended whole as its
                      file finishes, so an interrupted run keeps what it did. FILE is started anew
                      unless --resume is given.
  --resume            keep FILE and read only the files that have no line in it yet (a last line cut
                      short by a crash is removed first). Needs --out.
  --threads N         engine threads, each reading and extracting files on its own core (default
                      one per 100 files, up to ${os.availableParallelism()}, the number of cores: a thread takes about a second
                      to warm up; 1 with --data-dir, which is one engine's database). Their pages share
                      one OCR worker per core.
  --concurrency N     files in flight at once over all threads (default 2 per thread, or ${os.availableParallelism()} with one
                      thread): a thread reads the next file while OCR runs on another. With more than
                      one, lines come in the order files finish, not in the order given; there is
                      still exactly one line per file.
  --progress MODE     auto (default): a bar with files/s and ETA when stderr is a terminal (and the
                      lines do not go to that terminal), nothing otherwise; bar; plain (a line per
                      finished file); none. A summary (files, pages, failures by code, time) is always
                      printed on stderr at the end.
  --ocr MODE          auto (default: OCR pages without a text layer), always, never
  --ocr-engine NAME   auto (default: the host's tesseract program, 5.x, when it runs; else tesseract.js),
                      native (the program only: an error when it is missing), wasm (tesseract.js only)
  --data-dir DIR      keep files, token layers, jobs, results, rules and review tasks in DIR (SQLite and
                      files), as \`docex serve --data-dir DIR\` does; default: in memory, gone at exit
  -h, --help          this text

Ctrl-C stops cleanly: no new file is started and the files in flight finish (a second Ctrl-C
abandons them); the output stays valid JSON Lines and the exit code is 130.`;

export const GENERAL_HELP = `docex: document data extraction, offline

Usage: docex <command> [options]

Commands:
  extract <input>...    read the fields of each document (svc.extract)
  split <input>...      find the documents inside each file (svc.split)
  validate <input>...   extract, check rules, open review tasks (svc.validate)
  ingest <input>...     read each file into its token layer (words, lines, blocks)
  serve                 the HTTP interface (v1 and v2) on the embedded defaults
  reviewers             add, list and change the people who sign in to the review page
  help [command]        this text, or a command's

\`docex <command> --help\` describes a command and its options; \`docex --version\` (also after a
command) prints the version. extract, split, validate and ingest
write one JSON line per input file, to stdout or --out FILE, and take --out, --resume,
--threads, --concurrency, --progress, --ocr, --ocr-engine and --data-dir.

${INPUTS}

${EXIT_CODES}`;

export const COMMAND_HELP: Record<string, () => string> = {
  extract:
    () => `Usage: docex extract <input>... [--product ID]... [--locale LOCALE] [--verbose] [batch options]

Reads the fields of each PDF, PNG, JPEG, TIFF or GIF as an svc.extract job. One JSON line per file:
  {"file", "fileId", "status": "FINALISED", "results": {"timestamp", "fields": [...]}}
  {"file", "error": {"code", "message"}}                          when the file could not be read

Options:
  --product ID        product or fieldset ids (invoices:2, receipts:1, svc.invoice), repeatable or comma
                      separated; default invoices:2 and receipts:1 together. An unknown id is a usage
                      error.
  --locale LOCALE     how day-first or month-first dates are read (en-AU, en-US, de-DE...)
  --verbose           add the printed text and the alternatives to each field

${batchOptions()}

${INPUTS}

${EXIT_CODES}`,

  split: () => `Usage: docex split <input>... [batch options]

Finds the documents inside each file (svc.split); each becomes a child file. One JSON line per file:
  {"file", "fileId", "children": [{"file_id", "pages": [first, last], "confidence"}]}
  {"file", "error": {"code", "message"}}

${batchOptions()}

${INPUTS}

${EXIT_CODES}`,

  validate:
    () => `Usage: docex validate <input>... --product ID --rules FILE [--locale LOCALE] [--verbose] [batch options]

Extracts the product from each file, evaluates the checks of the rules on its predictions and opens
a review task for every check that holds (svc.validate). One JSON line per file:
  {"file", "fileId", "status": "FINALISED", "results", "tasks": []}     no check held
  {"file", "fileId", "status": "IN PROGRESS", "tasks": [{"id", "note", "field_ids", "priority"}]}
                      tasks were opened: the result waits for their review (with --data-dir, review
                      them with \`docex serve --data-dir DIR\`; without it they end with the run)
  {"file", "error": {"code", "message"}}

Options:
  --product ID        the product or fieldset validated, exactly one (invoices:2, svc.invoice)
  --rules FILE        a v2 rules record, {"data": {"checks": [{"condition", "note", "field_ids",
                      "priority"?}]}, "schema": true} (docs/validation.md). Checked before any file is
                      read (invalid rules: exit 2 with every problem and its path) and stored as the
                      rules named after FILE without its extension.
  --locale LOCALE     how day-first or month-first dates are read
  --verbose           add the printed text and the alternatives to each field

${batchOptions()}

${INPUTS}

${EXIT_CODES}`,

  ingest: () => `Usage: docex ingest <input>... [--text] [batch options]

Reads each file into its token layer (words with boxes, lines, blocks). One JSON line per file:
  {"file", "fileId", "pages", "tokens", "lines", "blocks"}    (with --text, "text": the text line by line)
  {"file", "error": {"code", "message"}}

Options:
  --text              add the text, line by line

${batchOptions()}

${INPUTS}

${EXIT_CODES}`,

  serve:
    () => `Usage: docex serve [--config FILE] [--port N] [--host ADDR] [--data-dir DIR] [--clients-file FILE]
       [--client ID:SECRET[:ACCOUNT]]... [--namespace NS] [--ocr-engine NAME] [--webhooks-allow-private]
       [--trust-proxy] [--database-url URL] [--database-schema NAME] [--files DIR|s3://BUCKET/PREFIX]
       [--log-level LEVEL] [--no-metrics]

The HTTP interface (v1 and v2) on the embedded defaults: files and a SQLite database in --data-dir
(default ./docex-data), port 8080 (or $PORT) on 127.0.0.1. Without clients it creates a client of
the account "default" and prints its id and secret. Logs are JSON lines on stdout: one per request,
one per job change, faults with their stack. GET /healthz, /readyz and /metrics (Prometheus) answer
without an access token. SIGTERM or Ctrl-C stops it cleanly: running jobs finish, or are taken up by
the next start.

Options (each also from the environment variable named, and from the config file's key in brackets;
an option beats the variable, the variable beats the file):
  --config FILE       a JSON config file (DOCEX_CONFIG); docs/operations.md lists its keys
  --port N            port to listen on, 0: any free port (DOCEX_PORT or PORT) [port]
  --host ADDR         address to listen on (DOCEX_HOST) [host]
  --data-dir DIR      where files, jobs, results, rules, tasks, accounts and clients are kept
                      (DOCEX_DATA_DIR) [dataDir]
  --clients-file FILE API clients, one ID:SECRET[:ACCOUNT] a line (DOCEX_CLIENTS_FILE) [clientsFile];
                      also DOCEX_CLIENTS (comma separated) and [clients]
  --client ID:SECRET[:ACCOUNT]   an API client on the command line (repeatable; visible in ps: prefer
                      the file or the variable)
  --namespace NS      prefix of built-in workflow and fieldset ids, default svc (DOCEX_NAMESPACE) [namespace]
  --ocr-engine NAME   auto (default: the host's tesseract program, 5.x, when it runs; else tesseract.js),
                      native (the program only: an error when it is missing), wasm (tesseract.js only)
                      (DOCEX_OCR_ENGINE) [ocrEngine]
  --webhooks-allow-private   let webhook subscriptions target loopback and private addresses (refused
                      by default) (DOCEX_WEBHOOKS_ALLOW_PRIVATE=1) [webhooksAllowPrivate]
  --trust-proxy       behind a reverse proxy: the client address from X-Forwarded-For, the protocol from
                      X-Forwarded-Proto (DOCEX_TRUST_PROXY=1) [trustProxy]
  --database-url URL  PostgreSQL (postgres://user:password@host/db) for jobs, results, tasks, accounts
                      and clients, shared by several serve processes (DOCEX_DATABASE_URL or
                      DATABASE_URL) [databaseUrl]. Default: SQLite in the data directory
  --database-schema NAME   schema of docex's tables, default docex (DOCEX_DATABASE_SCHEMA) [databaseSchema]
  --files DIR|s3://BUCKET/PREFIX   where files go (default DATA-DIR/files); for S3:
                      s3://bucket/prefix?endpoint=URL&region=R&path-style=1, credentials from the
                      AWS variables (AWS_ACCESS_KEY_ID...) (DOCEX_FILES) [files]
  --log-level LEVEL   fatal, error, warn, info (default), debug, trace or silent (DOCEX_LOG_LEVEL) [logLevel]
  --no-metrics        no GET /metrics (DOCEX_METRICS=off) [metrics.enabled]; DOCEX_METRICS_TOKEN
                      [metrics.token] asks scrapers for Authorization: Bearer TOKEN
  -h, --help          this text

Limits and page quotas of all accounts or of one are set in the config file ([limits], [accounts]).
Processes that share a database and files must also share the key that signs access tokens:
DOCEX_TOKEN_SECRET or DOCEX_TOKEN_SECRET_FILE [tokenSecretFile] (at least 32 bytes; default a key made
once in the data directory).

Exit codes:
  0    stopped by SIGTERM or Ctrl-C
  1    could not start (port in use, unreadable data directory, database not reachable)
  2    usage error`,

  reviewers: () => `Usage: docex reviewers add --login LOGIN --name NAME [--role reviewer|admin] [options]
       docex reviewers list [options]
       docex reviewers set --login LOGIN [--name NAME] [--role ROLE] [--disable | --enable] [options]

The people who sign in to the review page (/review/ of docex serve) with their own login and password;
API clients do not sign in there. An admin also manages the account's reviewers on the page. Kept in
the storage docex serve uses: give the same --data-dir, --database-url or --config (or variables).
Each reviewer is printed as a JSON line (never the password or its hash).

Actions:
  add                 a new reviewer; the login (a name or an e-mail address) is unique over every
                      account. Without --password-stdin a password is made and printed once on stderr.
  list                the account's reviewers, oldest first
  set                 change a reviewer's name, role or password, or disable/enable them; a new
                      password, role or state ends the sessions they have

Options:
  --login LOGIN       who (add, set)
  --name NAME         the person's name, as the page and task histories show it
  --role ROLE         reviewer (default for add) or admin
  --account ID        the account (default: default)
  --password-stdin    read the password from the first line of stdin (add, set); at least 10 characters
  --disable, --enable (set) a disabled reviewer cannot sign in; their name stays in task histories
  --config FILE, --data-dir DIR, --database-url URL, --database-schema NAME
                      where the state is, as for docex serve (DOCEX_CONFIG, DOCEX_DATA_DIR,
                      DOCEX_DATABASE_URL or DATABASE_URL, DOCEX_DATABASE_SCHEMA); default ./docex-data
  -h, --help          this text

Exit codes:
  0    done
  1    refused (a login taken, no such reviewer, a password too short) or the storage unreachable
  2    usage error`,
};
