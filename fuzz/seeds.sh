#!/bin/sh
# Writes the fuzz targets' seed corpora into OUT/{rollout,response,create-params,ci-outcome,atif,versions,family,config}/,
# one document per file: the rows of examples/*.jsonl and their parts, a trajectory written here, and,
# when ../shared is beside the project, rows from rowgen.py (of every version, in versions/) and the
# public ATIF fixtures, and schemagen.py's rows of the other families. Generated at each run, never committed.
# usage: fuzz/seeds.sh OUT
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
shared=${SEDIMENT_ROWS_SHARED_DIR:-$root/../shared}
# Debian's python3 where it is (a pyenv shim on PATH costs 0.3 s a call; the generators need only the
# standard library)
python3=python3
[ -x /usr/bin/python3 ] && python3=/usr/bin/python3
mkdir -p "$out/rollout" "$out/response" "$out/create-params" "$out/ci-outcome" "$out/atif" "$out/versions" "$out/family" "$out/config" "$out/repair"
cp "$root/examples/consumer-config.json" "$out/config/"
# a NeMo Gym profile's evidence record (fuzz-decode:nemo-gym-profile-evidence), its metadata an example row's
"$python3" - "$root/examples/rows.jsonl" > "$out/config/nemo-evidence.json" <<'PY'
import json, sys
metadata = json.loads(open(sys.argv[1]).readline())["metadata"]
print(json.dumps({"row_sha256": "a" * 64, "canonical_schema": metadata["schema_id"], "metadata": metadata,
                  "source_row_sha256": "b" * 64, "prompt_sha256": "c" * 64, "inference_call_ids": ["c1", "c2"],
                  "created_at_source_call_id": "c1", "response_configuration_source": "operator", "configuration_digest": "d" * 64,
                  "readable_reasoning_mapping": "verbatim summary_text; no summarization",
                  "native_output_messages": [[{"role": "assistant", "parts": [{"type": "reasoning", "content": "Look."},
                      {"type": "tool_call", "id": "t1", "name": "bash", "arguments": {"cmd": "ls", "n": 18446744073709551616}}],
                      "finish_reason": "tool_calls"}],
                      [{"role": "assistant", "parts": [{"type": "tool_call_response", "id": "t1", "result": [1, 2.5, None]},
                      {"type": "text", "content": "Done."}], "finish_reason": None}]]}))
PY
cat > "$out/config/nemo.json" <<'JSON'
{"nemo": {"parallel_tool_calls": false, "tool_choice": "auto", "tools": [{"type": "function", "name": "bash", "n": 18446744073709551616}]},
 "tasks": {" t-1 ": {"repo": "", "base_commit": "ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789", "problem_statement": " ",
  "test_patch": "", "hints_text": "", "created_at": "1700000000", "version": "v", "environment_setup_commit": "abcdef0123456789abcdef0123456789abcdef01",
  "FAIL_TO_PASS": ["a"], "PASS_TO_PASS": ["a"], "image": "i", "eval_script": "e", "log_parser": "l", "eval_type": "fail_only"}}}
JSON
rows=$out/rows.jsonl
cat "$root/examples/rows.jsonl" "$root/examples/mixed-versions.jsonl" > "$rows"
if [ -f "$shared/tools/rowgen.py" ]; then
  "$python3" "$shared/tools/rowgen.py" rows 20 --seed 9 --scale 0.1 >> "$rows"
  "$python3" "$shared/tools/rowgen.py" rows 20 --seed 10 --scale 0.1 --sediment >> "$rows"
  for f in "$shared"/fixtures/atif/*.json; do cp "$f" "$out/atif/"; done
  for name in sft-sample.v3 dpo-pair.v4 sediment-rlvr-rollout.v4; do  # the families' fuzz-decode targets
    "$python3" "$shared/tools/schemagen.py" $name 6 --seed 4 --scale 0.1 --sediment | split -l 1 - "$out/family/$name-"
  done
  for v in 1 2 3 4; do  # rows and CI outcomes of every version, one file each (fuzz-versions)
    "$python3" "$shared/tools/rowgen.py" rows 8 --seed $v --scale 0.1 --version $v | split -l 1 - "$out/versions/rows-v$v-"
    "$python3" "$shared/tools/rowgen.py" part ci-outcome 4 --seed $v --version $(( v < 4 ? v : 3 )) | split -l 1 - "$out/versions/ci-outcome-v$v-"
  done
fi
cat > "$out/family/sft-hand-written.json" <<'JSON'
{"prompt": [{"role": "user", "content": "Inspect app.py."}, {"role": "assistant", "tool_calls": [{"id": "t1", "type": "function",
 "function": {"name": "Read", "arguments": {"path": "app.py"}}}]}, {"role": "tool", "name": "Read", "tool_call_id": "t1", "content": "ok"}],
 "completion": [{"role": "assistant", "thinking": "Keep it.", "content": "Done."}], "tools": [],
 "metadata": {"org_id": "acme", "source_model": "m", "completion_id": "c1", "recipe_id": "sft_curated", "recipe_version": 1,
 "eligibility_source": "explicit_accept", "label_confidence": 0.9, "ci_reliability": 1.0,
 "provenance": {"policy_version": "5", "quarantine_revision": 0, "policy_digest": null}, "split": "train", "repository_identity": null,
 "attribution_source": "jaccard", "session_commit_observation_ids": [],
 "schema_id": "https://sediment.so/schemas/training-rows/sft-sample/v3.json", "schema_version": 3}}
JSON
cat > "$out/atif/hand-written.json" <<'JSON'
{"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "a", "version": "1", "extra": {"k": [1, 2.5]}},
 "steps": [{"step_id": 1, "source": "system", "message": "be careful", "timestamp": "2026-08-24T12:00:00Z"},
  {"step_id": 2, "source": "user", "message": [{"type": "text", "text": "fix it"}, {"type": "image", "source": {"media_type": "image/png", "path": "p.png"}}]},
  {"step_id": 3, "source": "agent", "message": "", "reasoning_content": "look first", "llm_call_count": 1,
   "tool_calls": [{"tool_call_id": "c1", "function_name": "bash", "arguments": {"command": "ls", "n": 18446744073709551616}}],
   "observation": {"results": [{"source_call_id": "c1", "content": null, "extra": {"tool_result": {"exit": 0}}}, {"content": "stray"}]},
   "metrics": {"prompt_tokens": 5, "cost_usd": 0.25, "logprobs": [-0.5]},
   "extra": {"sediment_rows": {"inference_call_id": "ic_1", "finish_reason": "tool_calls",
     "decisions": [{"accepted": true, "explicit": false, "agent_harness": "codex", "interaction_mode": "agent", "file_path": ""}]}}},
  {"step_id": 4, "source": "user", "message": "and?"},
  {"step_id": 5, "source": "agent", "message": [{"type": "text", "text": "done"}], "llm_call_count": 0}],
 "final_metrics": {"total_steps": 5}}
JSON
# repair's: what Python's json reads and Harbor's model coerces, one of each fault
cat > "$out/repair/faults.json" <<'JSON'
{"schema_version": "atif-v1.6", "agent": {"name": "a", "version": 1, "tools": []}, "debug": NaN, "debug": Infinity,
 "steps": [{"step_id": 3, "source": "User", "message": {"text": "hi\udc00"}, "model_name": "m", "timestamp": "yesterday"},
  {"step_id": "2", "source": "assistant", "message": null, "llm_call_count": "0", "reasoning_content": "r", "is_copied_context": "yes",
   "tool_calls": {"function_name": "f", "arguments": "{\"a\": 1.50}"}, "metrics": {"prompt_tokens": 64.0, "cost_usd": "0.1"},
   "observation": {"results": [{"source_call_id": "nope", "content": [{"type": "text", "source": {}}, {"type": "video"}, "s"],
     "subagent_trajectory_ref": {"trajectory_id": "x"}}]}},
  {"source": "agent", "message": [{"type": "audio", "source": {"media_type": " Audio/MP3", "path": "a"}}],
   "tool_calls": [{"tool_call_id": "c", "function_name": "g"}, {"tool_call_id": "c", "function_name": "g", "arguments": null}]}],
 "final_metrics": {"total_steps": -1}, "subagent_trajectories": [{"agent": {"name": "b", "version": "1"}, "steps": [{"source": "user", "message": ""}]}]}
JSON
cat > "$out/atif/hand-written-v1.8.json" <<'JSON'
{"schema_version": "ATIF-v1.8", "agent": {"name": "a", "version": "1"},
 "steps": [{"step_id": 1, "source": "user", "message": [{"type": "text", "text": "listen"},
   {"type": "audio", "source": {"media_type": "audio/x-wav", "path": "in.wav", "duration_sec": 12.5}},
   {"type": "image", "source": {"media_type": "image/png", "path": "p.png"}}]},
  {"step_id": 2, "source": "agent", "message": "", "llm_call_count": 1,
   "tool_calls": [{"tool_call_id": "c1", "function_name": "transcribe", "arguments": {"path": "in.wav"}}],
   "observation": {"results": [{"source_call_id": "c1", "content": [{"type": "audio", "source": {"media_type": "audio/mpeg", "path": "out.mp3", "duration_sec": null}}]},
     {"subagent_trajectory_ref": [{"trajectory_id": "sub-1"}]}]}}],
 "subagent_trajectories": [{"trajectory_id": "sub-1", "agent": {"name": "b", "version": "2"},
   "steps": [{"step_id": 1, "source": "user", "message": [{"type": "audio", "source": {"media_type": "audio/flac", "path": "s.flac", "duration_sec": 0}}]}]}]}
JSON
"$python3" - "$rows" "$out" <<'PY'
import json, sys
rows, out = sys.argv[1], sys.argv[2]
for i, line in enumerate(open(rows, encoding="utf-8")):
    if not line.strip():
        continue
    row = json.loads(line)
    def write(kind, value):
        with open(f"{out}/{kind}/{i:03}.json", "w", encoding="utf-8") as f:
            f.write(value if isinstance(value, str) else json.dumps(value))
    write("rollout", line.rstrip("\n"))
    write("response", row["response"])
    write("create-params", row["responses_create_params"])
    for k, outcome in enumerate(row["metadata"]["verifier_results"][:2]):
        with open(f"{out}/ci-outcome/{i:03}-{k}.json", "w", encoding="utf-8") as f:
            f.write(json.dumps(outcome))
PY
rm "$rows"
