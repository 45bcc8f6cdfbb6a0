#include "emit_cpp.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "emit_common.hpp"
#include "template.hpp"

namespace gen {

using namespace cpp;

std::map<std::string, std::string> emit_headers(const Module& module, std::vector<Problem>& problems) {
    return {
        {"schemas.hpp", emit_schemas(module)},
        {"models.hpp", emit_models(module, problems)},
        {"read.hpp", emit_readers(module)},
        {"read_impl.hpp", emit_reader_definitions(module)},
        {"write.hpp", emit_writers(module)},
        {"fast_read.hpp", emit_fast_readers(module)},
        {"token_read.hpp", emit_token_readers(module)},
        {"views.hpp", emit_views(module)},
    };
}

std::string emit_embedded_schemas(const Module& module, const std::vector<std::string>& schema_bytes) {
    std::string arrays, cases;
    for (std::size_t i = 0; i < module.schemas.size(); ++i) {
        std::string bytes;
        for (std::size_t k = 0; k < schema_bytes[i].size(); ++k) {
            bytes += std::to_string(static_cast<unsigned char>(schema_bytes[i][k])) + ",";
            if (k % 32 == 31) bytes += "\n";
        }
        arrays += fill("// $File$\nconstexpr unsigned char kSchema$I$[] = {\n$Bytes$};\n\n",
                       {{"File", "schemas/" + module.schemas[i].name + ".schema.json"},
                        {"I", std::to_string(i)},
                        {"Bytes", bytes}});
        cases += fill(
            "        case SchemaId::$Id$: return {reinterpret_cast<const char*>(kSchema$I$), sizeof kSchema$I$};\n",
            {{"Id", schema_enumerator(module.schemas[i].name)}, {"I", std::to_string(i)}});
    }
    return fill(R"($Banner$#include "sediment/rows/schema.hpp"

namespace sediment::rows {
namespace {

$Arrays$}  // namespace

std::string_view schema_text(SchemaId id) noexcept {
    switch (id) {
$Cases$    }
    return {};
}

}  // namespace sediment::rows
)",
                {{"Banner", banner(module)}, {"Arrays", arrays}, {"Cases", cases}});
}

}  // namespace gen
