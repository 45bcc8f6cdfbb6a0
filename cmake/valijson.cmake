# valijson (header-only) is a private build dependency of the compiled part of the library: consumers
# of the installed package never need it. Debian's libvalijson-dev ships a CMake package; the
# project's set-up script installs only its headers (the package pulls in ~70 unrelated packages).
find_package(valijson QUIET CONFIG)
find_path(SEDIMENT_ROWS_VALIJSON_INCLUDE_DIR valijson/validator.hpp
  HINTS ${valijson_DIR}/../../../include)
if(NOT SEDIMENT_ROWS_VALIJSON_INCLUDE_DIR)
  message(FATAL_ERROR "valijson's headers were not found: run ./cmake/install-deps.sh "
                      "(or apt-get install libvalijson-dev), or set SEDIMENT_ROWS_VALIJSON_INCLUDE_DIR")
endif()
add_library(sediment_rows_valijson INTERFACE)
target_include_directories(sediment_rows_valijson SYSTEM INTERFACE ${SEDIMENT_ROWS_VALIJSON_INCLUDE_DIR})
target_compile_definitions(sediment_rows_valijson INTERFACE VALIJSON_USE_EXCEPTIONS=1)
