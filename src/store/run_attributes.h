// Root attributes of a run file that are not options (docs/run_file.md): what the trainer measured or
// decided about the run, read back by summarize, sweeps and the Python reader.
#pragma once

namespace glimpse {

// The training products' MFLOP per training image (forward and backward of every episode), measured
// on a run's first step.
inline constexpr const char* kTrainMflopPerImage = "train_mflop_per_image";
// The epoch at whose evaluation a --stop-at run reached its target; such a run is finished (summarize
// --status, scripts/sweep) and a resume trains nothing.
inline constexpr const char* kStoppedAtTarget = "stopped_at_target";
// The slot an --init-from run loaded from its source ("best " or "last ") and those parameters' digest:
// provenance, not configuration (the source's path is the option --init-from).
inline constexpr const char* kInitFromParams = "init_from_params";

}  // namespace glimpse
