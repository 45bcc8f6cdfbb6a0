// sediment-rows: typed, strict models of the NeMo Gym rollout rows that Sediment exports.
//
//   auto row = sediment::rows::decode<sediment::rows::NemoGymRolloutRow>(line);  // throws DecodeError
//   std::string text = sediment::rows::encode(row, sediment::rows::Style::sediment);
#pragma once

#include "rows/convert.hpp"
#include "rows/decode.hpp"
#include "rows/encode.hpp"
#include "rows/error.hpp"
#include "rows/json.hpp"
#include "rows/schema.hpp"
#include "rows/value.hpp"
