// The help of sediment-rows and of each command.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "detail/text.hpp"
#include "cli.hpp"

namespace sediment_rows_cli {

namespace {

const char* const kOverview = R"(usage: sediment-rows COMMAND [OPTIONS] [FILE...]

Commands:
  validate   check documents against a bundled schema
  format     re-encode documents strictly, to standard output or in place, or check that they are
  convert    convert ATIF trajectories to rollout rows or their parts, and rollout rows to ATIF
  upgrade    rewrite documents of an older published version as a newer one
  repair     bring ATIF trajectories that fail Harbor's model (or NeMo Gym's subset) to valid ones
  lint       check that rollout rows are what Sediment's derivation rules produce
  verify     check that a consumer profile folder (hf-trl-sft-v1, ...) is the one Sediment wrote
  schema     list the bundled schemas, or print one
  help       'sediment-rows help COMMAND' (or 'sediment-rows COMMAND --help') explains one

  --version  print the version
  --help     print this

Exit status: 0 when every document passes, 1 when one does not, 2 on a usage or I/O error.
)";

const char* const kFiles = R"(
FILE is a path, or - for standard input; a folder stands for its *.jsonl, *.jsonl.gz, *.json and
*.json.gz files, recursively, in sorted order (names that begin with '.' passed over), each named
FOLDER/PATH. A file named *.json or *.json.gz holds one document; any
other file holds one document per line (JSONL; blank lines are skipped), unless --document says each
file is one document. Compressed files (gzip) are read whatever their name. Files are read as a
stream: memory holds the documents in flight, not the file. A file that holds no document is said so
on standard error ("no documents in FILE"). With several files, the summary gives a line per file,
then the total; --format jsonl adds a record that sums up each file after its documents.
)";

const char* const kCommonOptions = R"(
Reporting:
  --format text|jsonl|github
                 text (default): 'FILE:LINE: POINTER: message' for each error;
                 jsonl: one JSON object per document {"file", "line", "valid", "errors"};
                 github: GitHub Actions annotations (the first 10 errors and 10 warnings, then a
                 count of the rest)
  -q, --quiet    errors only: no summary, no progress line, no dropped values
  -v, --verbose  also the run's time, speed and peak resident memory (validate: and each valid document)
  --fail-fast    stop at the first document that fails
  --max-errors N stop after N errors
Input:
  --document     each FILE (standard input too) is one JSON document, whatever its name and layout
                 (a pretty-printed document, a JSON array)
  --require-documents
                 a FILE that holds no document fails the run (exit 1), as an empty export should
Running:
  -j, --jobs N   threads (default: every core); output stays in input order
  --max-depth N, --max-document-bytes N, --max-string-bytes N
                 limits on one document (defaults 1000, 268435456, 67108864); exceeding one is an
                 error that names it
On a terminal, a progress line (documents, MB/s) shows on standard error while a command runs.
)";

const char* const kValidate = R"(usage: sediment-rows validate --schema NAME [OPTIONS] FILE...

Checks every document against a bundled schema ('sediment-rows schema list'). Errors go to standard
output, the summary ("N valid, M invalid") to standard error.

  --schema NAME          the documents' schema ('sediment-rows schema list'): a schema and version
                         (nemo-gym-rollout.v4, sft-sample.v3, ci-outcome.v3, atif, atif-v1.7, ...);
                         a family without its version (nemo-gym-rollout, sft-sample, dpo-pair,
                         diff-sft-sample, recovery-row, swe-bench-task, sediment-rlvr-task,
                         sediment-rlvr-rollout): each document as the version it names (jsonl
                         reports add "schema"); or any: each as the family and version it names
  --engine typed|schema  typed (default) decodes into the C++ models with every rule of the schema
                         and of the spec; schema runs valijson over the bundled JSON Schema
  --check-media-files    atif and atif-v1.7: every image and audio content part's source.path in the
                         steps' messages and observation results names a file that exists, relative
                         to the trajectory file's folder (URLs are skipped), as Harbor's validator
                         checks; --check-image-files is the same option's former name
)";

const char* const kValidateExit = R"(
Exit status:
  0  every document is valid
  1  a document is invalid
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kFormat = R"(usage: sediment-rows format --schema NAME [--style compact|sediment]
                            [--check | -i | --out FOLDER] [OPTIONS] FILE...

Decodes every document strictly and writes it again, one line per document: to standard output, with
--out to a file for each input, or with -i back into its file. Errors go to standard error, with the
summary.

  --schema NAME          the documents' schema, as for validate (a family's name: each document's
                         own version)
  --style compact|sediment
                         compact (default): no spaces; sediment: the bytes Sediment's exporter
                         writes (", " and ": ")
  --check                write nothing; report each file that would change, at its first line
                         that would and why (CR LF, a blank line, spacing, escaping, key order,
                         ...), and each invalid document, whose file is not formatted either
  -i, --in-place         rewrite each file that would change: the new file is written beside it and
                         renamed over it, so a reader sees the old file or the new one, never a part.
                         A file holding an invalid document is left as it was. Plain files only
                         (not standard input, not compressed files)
  --out FOLDER           write each input's documents to a file of its own in FOLDER (see convert)
)";

const char* const kFormatExit = R"(
Exit status:
  0  every document is valid (and, with --check, every file is formatted)
  1  a document is invalid, or (--check) a file is not formatted
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read or rewritten
)";

const char* const kConvert = R"(usage: sediment-rows convert --from NAME --to NAME [--metadata FILE] [--lossy]
                             [--out FOLDER] [OPTIONS] FILE...

Converts ATIF trajectories to rollout rows or their parts, and rollout rows to ATIF, one output line
per document, to standard output. Errors go to standard error. docs/convert.md shows the three paths
(a trajectory from elsewhere to trainer parts, to a row with Sediment's metadata, a row and back);
docs/atif-mapping.md the mapping field by field.
  --from atif-v1.7 --to nemo-gym-rollout[.vN] | nemo-gym-response.vN | nemo-gym-responses-create-params.vN
  --from atif        the same from any ATIF version (Harbor's model): upgraded to atif-v1.7 first
                     (see upgrade), so what NeMo Gym's subset refuses fails the document
  --from nemo-gym-rollout[.vN] --to atif-v1.7
  A rollout row of any version converts (without .vN, each row is read as the version it names); a
  row made from a trajectory is of the version --to names, or without .vN, of its metadata's.

  --metadata FILE        a rollout row needs metadata: the trajectory's own (written by --to
                         atif-v1.7), or line i of FILE for the i-th trajectory, an object
                         {"metadata": {...}, "reward": 1.0} ("reward" optional) of the row's version
  --lossy                a value the target cannot hold fails the document, with the full list of
                         what --lossy would drop (an audio part stopping the upgrade to ATIF-v1.7
                         first, the rest as warnings) and its count in the summary; --lossy drops
                         exactly those values and lists them as warnings; the summary counts what
                         was dropped, by kind
  --style compact|sediment
                         as for format
  --out FOLDER           write each input's documents to a file of its own in FOLDER, named by its
                         path below the folder that holds every input (a compression's extension
                         dropped, *.json as *.jsonl), as sediment_rows.dask names them; each file
                         appears whole, once its input is read

usage: sediment-rows convert --to PROFILE --out FOLDER [--no-split] [--canonical-skipped JSON]
                             [--consumer-config FILE] [--fragmented JSON] [--from NAME] [-j N] [-q]
                             FILE...

With --to a consumer profile (hf-trl-sft-v1, fireworks-sft-v1: sft-sample.v3 rows; hf-trl-dpo-v2,
fireworks-dpo-v2: dpo-pair.v4 rows; swe-bench-tasks-v1: swe-bench-task.v3 rows and a consumer
config), writes the folder `sediment export --profile` writes, byte for byte (docs/profiles.md):
data.train.jsonl, data.eval.jsonl, their evidence and compatibility.json.
A row's split is its file's (NAME.train.jsonl, NAME.eval.jsonl), else its metadata's. The folder
appears at once (written aside, renamed), 0700 and its files 0600; an existing FOLDER is refused.
Where Sediment refuses the export (a canonical row its model refuses or would change, a developer
message for Fireworks, an exact prompt in train and eval, ...), so does this, with Sediment's message,
and nothing is written.
  --no-split             one data.jsonl and evidence.jsonl (Sediment's eval fraction 0)
  --canonical-skipped JSON
                         the counts Sediment's projection skipped, for the manifest
                         (default {}), e.g. '{"below_confidence_floor": 2}'
  --consumer-config FILE swe-bench-tasks-v1: the operator's consumer config, each task's settings
                         by instance id (`validate --schema consumer-config FILE` checks one)
  --fragmented JSON      swe-bench-tasks-v1: the counts of rows Sediment's bundle fragmented, for
                         the manifest (default {})
  -j N                   map rows on N threads (default: one per core); the folder is the same
)";

const char* const kConvertExit = R"(
Exit status:
  0  every document was converted
  1  a document could not be (invalid, or it would lose values without --lossy)
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kUpgrade = R"(usage: sediment-rows upgrade --to NAME [--from NAME] [--lossy] [--style compact|sediment]
                             [--out FOLDER] [OPTIONS] FILE...

Rewrites each document as a newer version of its schema, one output line per document, to standard
output (docs/upgrade.md: what each version adds, and how it is derived). Errors go to standard error.
  --to NAME              the version to write: nemo-gym-rollout.v4, ci-outcome.v3, ...; atif-v1.7
                         (NeMo Gym's subset) from atif, Harbor's model of any ATIF version: the
                         label becomes ATIF-v1.7, every other value stays, and what the subset
                         refuses fails the document
  --from NAME            the documents' version. Rows name their own: by default each is read as the
                         version its metadata.schema_id names (jsonl reports add "schema"); other
                         documents need it (nemo-gym-response.v1, ...)
  --lossy                a field the newer version needs and the document cannot give fails the
                         document, naming the field, the versions and why; for a rollout row,
                         --lossy drops the CI resolution it belongs to instead (with its reward) and
                         lists what it dropped as warnings (a strict run lists what it would drop);
                         for Harbor's ATIF, an audio part. Other families have nothing to drop:
                         --lossy is refused there
  --style compact|sediment
                         as for format
  --out FOLDER           write each input's documents to a file of its own in FOLDER (see convert)
)";

const char* const kUpgradeExit = R"(
Exit status:
  0  every document was upgraded
  1  a document could not be (invalid, newer than --to, or a field it cannot derive)
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kRepair = R"(usage: sediment-rows repair --schema atif|atif-v1.7 [--lossy] [--style compact|sediment]
                            [-i | --out FOLDER] [OPTIONS] FILE...

Repairs each ATIF trajectory (a .json file as one document, JSONL one a line) so that it is valid
under --schema, and writes it to standard output; a valid one comes back byte for byte. Each change
goes to standard error as 'FILE:LINE: POINTER: what changed [rows.repair.ID]' (docs/atif.md lists
every repair), then a summary: '3 repaired, 1 refused, 12 unchanged'. A refused document (not JSON,
a root that is not an object, no steps, no agent name, a step without a source, or a repair that
needs --lossy) gets its errors, and nothing is written for it.
  --schema NAME          atif (Harbor's model, any version) or atif-v1.7 (NeMo Gym's subset: repaired,
                         then relabelled ATIF-v1.7 as upgrade does)
  --lossy                also make the repairs that drop or invent a value (a default name, a part
                         dropped, NaN as null, ...); without it a document that needs one is refused
                         with what --lossy would do
  --style compact|sediment
                         the layout of a repaired document, as for format
  -i, --in-place         rewrite each FILE with its repaired documents; a file with a refused
                         document is left as it was
  --out FOLDER           write each input's documents to a file of its own in FOLDER (see convert)
  (--format jsonl: each document's record has "repaired" and a "repairs" list of {"id", "pointer",
  "message", "lossy"} beside "errors")
)";

const char* const kRepairExit = R"(
Exit status:
  0  every document came out valid
  1  a document was refused (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kLint = R"(usage: sediment-rows lint --schema NAME [--eval-fraction F] [--min-confidence C]
                          [--max-pairs-per-bucket N] [--sessions-complete] [OPTIONS] FILE...

Checks what a schema cannot say: that each row is what Sediment's derivation rules produce
(docs/lint.md lists every rule, with the source in Sediment it comes from). A row that is not schema-valid gets its schema errors and no lint.
Each finding names its rule: 'FILE:LINE: POINTER: message [rule]' (jsonl: "id" in each error).
  Within a row: reward, reward_source and the CI verdict agree; instance_id; split; verifier_results
  sorted and of the row's org; ci_resolution recomputed from verifier_results; the turns (input,
  echoes, tool calls and results, completions); the version 3 and 4 fields.
  Across rows (state per session, never per row): the rows of a session agree on everything but their
  turns (the rows that differ from most of the session's get the finding); segment indexes and
  instance ids are unique.
  Other families: SFT's eligibility source, minimum confidence and completion order; DPO's label
  sources, confidence margin, self pairs, identical responses and pairs per bucket; the split of a
  row that names its session; a row twice (the same completion, pair, task or instance id), in any
  of the files; an exact prompt in both train and eval; a row in NAME.train.jsonl or
  NAME.eval.jsonl whose split is the other.
Findings go to standard output, the summary to standard error.

  --schema NAME          nemo-gym-rollout, sft-sample, dpo-pair, diff-sft-sample, recovery-row,
                         sediment-rlvr-rollout, sediment-rlvr-task, swe-bench-task (.vN: that
                         version; without: each row as the version it names), or any
  --eval-fraction F      the eval fraction the split was derived with, 0.0 to 0.5 (default 0.1)
  --min-confidence C     SFT's minimum label confidence, 0.0 to 1.0 (default 0.6, Sediment's)
  --max-pairs-per-bucket N  DPO's most pairs per org, model and prompt (default 3, Sediment's)
  --sessions-complete    the files hold whole sessions: each session's segments are 0..k-1
)";

const char* const kLintExit = R"(
Exit status:
  0  no finding
  1  a finding, or a row that is not schema-valid
     (with --require-documents: also a FILE that holds no document)
  2  usage error, or a file that cannot be read
)";

const char* const kVerify = R"(usage: sediment-rows verify [--canonical FILE]... [--consumer-config FILE]
                            [--format text|jsonl|github] [-q] FOLDER...

Checks that each FOLDER is the consumer profile folder Sediment wrote (docs/profiles.md): its files
are the manifest's (compatibility.json), with their SHA-256 and sizes; the manifest is in Sediment's
digest form and names the profile's entry; data and evidence lines align, each row_sha256 is its data
line's digest; every line is in Sediment's line form and order, and valid under its model; the
counts, splits and prompts are as the manifest says, and no exact prompt is in train and eval; for
SFT, DPO and SWE-bench profiles, each evidence record's source and prompt digests are those of the
canonical row its data row maps from. Each finding: 'FOLDER/FILE:LINE: POINTER: message [rows.verify.ID]'
(docs/errors.md); then a line per folder on standard error.
  --canonical FILE       canonical JSONL (sft.train.jsonl, ...): each source_row_sha256 must name
                         one of its rows and (SFT, DPO) each data row be that row's mapping
  --consumer-config FILE swe-bench-tasks-v1: the config the folder was written with; each
                         configuration_digest must be its digest, and with --canonical each row
                         its canonical row's mapping
  --format text|jsonl|github
                         as for validate; jsonl ends each folder with {"file", "summary"}
  -q, --quiet            no summary lines

Exit status:
  0  every folder verifies
  1  a finding
  2  usage error, or a FOLDER that is not a folder
)";

const char* const kSchema = R"(usage: sediment-rows schema list
       sediment-rows schema show NAME

list prints every name a schema can be given, by name: any, then each bundled schema's name and URI,
and just before a family's versions its name without a version, with the versions it stands for. show prints a schema, byte for byte; for a family's
name or any, a JSON Schema whose anyOf takes each schema it stands for, embedded as bundled.

Exit status:
  0  done
  2  usage error (an unknown schema)
)";

}  // namespace

std::string help(const std::string& command) {
    if (command == "validate") return std::string(kValidate) + kCommonOptions + kFiles + kValidateExit;
    if (command == "format") return std::string(kFormat) + kCommonOptions + kFiles + kFormatExit;
    if (command == "convert") return std::string(kConvert) + kCommonOptions + kFiles + kConvertExit;
    if (command == "upgrade") return std::string(kUpgrade) + kCommonOptions + kFiles + kUpgradeExit;
    if (command == "repair") return std::string(kRepair) + kCommonOptions + kFiles + kRepairExit;
    if (command == "lint") return std::string(kLint) + kCommonOptions + kFiles + kLintExit;
    if (command == "schema") return kSchema;
    if (command == "verify") return kVerify;
    return kOverview;
}

bool has_help(const std::string& command) { return help(command) != kOverview; }

}  // namespace sediment_rows_cli
