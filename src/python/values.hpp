// Python values <-> JSON text for the native module (module.cpp): text from str or bytes, str from
// the library's text, Python objects from compact JSON, and JSON from Python objects.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sediment/rows.hpp>

#include "detail/fast_dom.hpp"
#include "detail/writer.hpp"

namespace sediment_rows_python {

namespace py = pybind11;
namespace rows = sediment::rows;

/// A str of text the library wrote, which is valid UTF-8 (input bytes reach it only as \xNN); should
/// a byte that is not UTF-8 slip through, it is written as \xNN too (Python's "backslashreplace"),
/// never raised as a UnicodeDecodeError.
inline py::str py_text(std::string_view s) {
    PyObject* out = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "backslashreplace");
    if (!out) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(out);
}

/// The bytes of a `bytes` or `str` argument, valid while the Text lives. A str is its UTF-8; one that
/// holds lone surrogates (as text read with errors="surrogateescape" does) is encoded with them, as
/// the bytes they stand for, so that the document gets its verdict (rows.parse.syntax) like bytes do.
struct Text {
    py::object owner;  // the bytes behind `view`, when they had to be made
    std::string_view view;
};
inline Text text_of(const py::object& data) {
    Text t;
    if (PyBytes_Check(data.ptr())) {
        char* bytes = nullptr;
        Py_ssize_t size = 0;
        PyBytes_AsStringAndSize(data.ptr(), &bytes, &size);
        t.view = {bytes, static_cast<std::size_t>(size)};
        return t;
    }
    if (!PyUnicode_Check(data.ptr()))
        throw py::type_error("data must be bytes or str, not " + std::string(py::str(py::type::of(data).attr("__name__"))));
    Py_ssize_t size = 0;
    if (const char* utf8 = PyUnicode_AsUTF8AndSize(data.ptr(), &size)) {
        t.view = {utf8, static_cast<std::size_t>(size)};
        return t;
    }
    PyErr_Clear();  // lone surrogates: U+DC80..U+DCFF stand for the bytes 0x80..0xFF, any other is itself
    PyObject* bytes = PyUnicode_AsEncodedString(data.ptr(), "utf-8", "surrogateescape");
    if (!bytes) {
        PyErr_Clear();
        bytes = PyUnicode_AsEncodedString(data.ptr(), "utf-8", "surrogatepass");
    }
    if (!bytes) throw py::error_already_set();
    t.owner = py::reinterpret_steal<py::object>(bytes);
    t.view = {PyBytes_AS_STRING(bytes), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes))};
    return t;
}

/// No cyclic garbage collection while it lives (the GIL held): values made from a document hold no
/// cycle, and a collection while they are made would only walk them, and every live object, again and
/// again (half of the time json.loads takes on rows kept in a list). Collections run again after it.
class NoCollection {
public:
#if PY_VERSION_HEX >= 0x030A0000
    NoCollection() : collecting_(PyGC_Disable()) {}
    ~NoCollection() {
        if (collecting_) PyGC_Enable();
    }
#endif
    NoCollection(const NoCollection&) = delete;
    NoCollection& operator=(const NoCollection&) = delete;

private:
    [[maybe_unused]] int collecting_ = 0;
};

/// Python values from JSON text the library wrote (valid, compact style): objects become dicts in the
/// text's key order, integers ints of any size, decimals floats, null None.
class PythonBuilder {
public:
    explicit PythonBuilder(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

    py::object value() {
        switch (*p_) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': p_ += 4; return py::bool_(true);
            case 'f': p_ += 5; return py::bool_(false);
            case 'n': p_ += 4; return py::none();
            default: return number();
        }
    }

private:
    py::object object() {
        py::dict out;
        ++p_;  // {
        while (*p_ != '}') {
            py::object key = string();
            ++p_;  // :
            out[key] = value();
            if (*p_ == ',') ++p_;
        }
        ++p_;
        return std::move(out);
    }

    py::object array() {
        py::list out;
        ++p_;  // [
        while (*p_ != ']') {
            out.append(value());
            if (*p_ == ',') ++p_;
        }
        ++p_;
        return std::move(out);
    }

    py::object string() {
        const char* start = ++p_;
        while (*p_ != '"' && *p_ != '\\') ++p_;
        if (*p_ == '"') {  // no escape: the bytes are the string
            py::object out = py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(start, p_ - start, "strict"));
            ++p_;
            if (!out) throw py::error_already_set();
            return out;
        }
        std::string text(start, p_);
        while (*p_ != '"') {
            if (*p_ != '\\') {
                text += *p_++;
                continue;
            }
            ++p_;
            const char c = *p_++;
            switch (c) {
                case 'b': text += '\b'; break;
                case 'f': text += '\f'; break;
                case 'n': text += '\n'; break;
                case 'r': text += '\r'; break;
                case 't': text += '\t'; break;
                case 'u': text += escaped_control(); break;
                default: text += c;  // " \\ /
            }
        }
        ++p_;
        py::object out = py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "strict"));
        if (!out) throw py::error_already_set();
        return out;
    }

    /// A \uXXXX escape's character: the compact style writes UTF-8 as it is and escapes only the
    /// control characters, so it is one byte.
    char escaped_control() {
        unsigned v = 0;
        std::from_chars(p_, p_ + 4, v, 16);
        p_ += 4;
        return static_cast<char>(v);
    }

    py::object number() {
        const char* start = p_;
        bool decimal = false;
        while (p_ < end_ && (std::isdigit(static_cast<unsigned char>(*p_)) || *p_ == '-' || *p_ == '+' || *p_ == '.' || *p_ == 'e' || *p_ == 'E'))
            decimal = decimal || *p_ == '.' || *p_ == 'e' || *p_ == 'E', ++p_;
        if (decimal) {
            double v = 0;
            const bool negative = *start == '-';
            std::from_chars(start + negative, p_, v);
            return py::float_(negative ? -v : v);
        }
        long long v = 0;
        const auto r = std::from_chars(start, p_, v);
        if (r.ec == std::errc() && r.ptr == p_) return py::int_(v);
        const std::string digits(start, p_);  // beyond 64 bits
        return py::reinterpret_steal<py::object>(PyLong_FromString(digits.c_str(), nullptr, 10));
    }

    const char* p_;
    const char* end_;
};

/// Python values straight from the DOM of a document the fast path accepted (loads()): what
/// PythonBuilder builds from the compact text, with no text in between. Short keys are made once and
/// kept (a schema's keys recur in every row); strings of ASCII are copied into their str. Runs with the
/// GIL held, which guards the kept keys.
/// Every method returns a new reference, or nullptr with Python's error set (out of memory).
class DomBuilder {
public:
    explicit DomBuilder(const rows::detail::BigIntegers& big_integers) : big_(big_integers) {}

    PyObject* value(simdjson::dom::element e) {
        using simdjson::dom::element_type;
        switch (e.type()) {
            case element_type::OBJECT: return object(e.get_object().value_unsafe());
            case element_type::ARRAY: return array(e.get_array().value_unsafe());
            case element_type::STRING: {
                const std::string_view s = e.get_string().value_unsafe();
                return is_marker(s) ? big_integer(s) : string(s);
            }
            case element_type::INT64: return PyLong_FromLongLong(e.get_int64().value_unsafe());
            case element_type::UINT64: return PyLong_FromUnsignedLongLong(e.get_uint64().value_unsafe());
            case element_type::DOUBLE: return PyFloat_FromDouble(e.get_double().value_unsafe());
            case element_type::BOOL: return PyBool_FromLong(e.get_bool().value_unsafe());
            case element_type::NULL_VALUE: Py_RETURN_NONE;
        }
        Py_RETURN_NONE;  // (every type is above)
    }

private:
    static constexpr std::size_t kKeyBytes = 40, kKeptKeys = 4096;  // (a power of two)

    const rows::detail::BigIntegers& big_;

    PyObject* object(simdjson::dom::object o) {
#if PY_VERSION_HEX < 0x030D0000
        PyObject* out = _PyDict_NewPresized(static_cast<Py_ssize_t>(o.size()));  // (size() saturates: a hint)
#else
        PyObject* out = PyDict_New();  // (Python 3.13 keeps _PyDict_NewPresized to itself)
#endif
        if (!out) return nullptr;
        for (const auto [key, item] : o) {
            PyObject* k = this->key(key);
            PyObject* v = k ? value(item) : nullptr;
            const int failed = v ? PyDict_SetItem(out, k, v) : -1;
            Py_XDECREF(k);
            Py_XDECREF(v);
            if (failed) {
                Py_DECREF(out);
                return nullptr;
            }
        }
        return out;
    }

    PyObject* array(simdjson::dom::array a) {
        const std::size_t size = a.size();  // saturates at 0xFFFFFF items: past it, appended
        const bool sized = size < 0xFFFFFF;
        PyObject* out = PyList_New(sized ? static_cast<Py_ssize_t>(size) : 0);
        if (!out) return nullptr;
        Py_ssize_t i = 0;
        for (const simdjson::dom::element item : a) {
            PyObject* v = value(item);
            if (v && sized) {
                PyList_SET_ITEM(out, i++, v);
                continue;
            }
            const int failed = v ? PyList_Append(out, v) : -1;
            Py_XDECREF(v);
            if (failed) {
                Py_DECREF(out);
                return nullptr;
            }
        }
        return out;
    }

    static PyObject* string(std::string_view s) {
        const auto* p = reinterpret_cast<const unsigned char*>(s.data());
        std::uint64_t high = 0;
        std::size_t i = 0;
        for (; i + 8 <= s.size(); i += 8) {
            std::uint64_t word;
            std::memcpy(&word, p + i, 8);
            high |= word;
        }
        for (; i < s.size(); ++i) high |= p[i];
        if (high & 0x8080808080808080ull)  // not ASCII: simdjson checked the UTF-8
            return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "strict");
        PyObject* out = PyUnicode_New(static_cast<Py_ssize_t>(s.size()), 127);
        if (out) std::memcpy(PyUnicode_1BYTE_DATA(out), s.data(), s.size());
        return out;
    }

    /// A key's str: made once and kept when it is short, in a slot chosen by a hash of its bytes; a key
    /// whose slot another holds is made each time.
    PyObject* key(std::string_view k) {
        if (k.size() > kKeyBytes) return string(k);
        struct Kept {
            std::string_view bytes;  // the str's own UTF-8, which lives as it does (for the process's life)
            PyObject* str = nullptr;
        };
        static Kept* const kept = new Kept[kKeptKeys];
        std::uint64_t first = 0, last = 0;  // a hash of the length and the first and last 8 bytes
        std::memcpy(&first, k.data(), std::min<std::size_t>(k.size(), 8));
        if (k.size() > 8) std::memcpy(&last, k.data() + k.size() - 8, 8);
        const std::uint64_t h = ((first * 0x9E3779B97F4A7C15ull) ^ (last * 0xC2B2AE3D27D4EB4Full) ^ k.size()) >> 40;
        Kept& slot = kept[h & (kKeptKeys - 1)];
        if (slot.str && slot.bytes == k) {
            Py_INCREF(slot.str);
            return slot.str;
        }
        PyObject* made = string(k);
        if (!made || slot.str) return made;
        PyUnicode_InternInPlace(&made);
        Py_ssize_t size = 0;
        const char* utf8 = PyUnicode_AsUTF8AndSize(made, &size);
        if (!utf8) return made;  // (cannot fail: the str was made from UTF-8)
        Py_INCREF(made);
        slot = Kept{std::string_view(utf8, static_cast<std::size_t>(size)), made};
        return made;
    }

    /// Where the DOM holds big integers, a string of a marker's form is one.
    bool is_marker(std::string_view s) const { return !big_.empty() && rows::detail::marker_form(s); }

    PyObject* big_integer(std::string_view marker) const {
        const std::string digits(big_.at(rows::detail::marker_index(marker)).first);
        return PyLong_FromString(digits.c_str(), nullptr, 10);
    }
};

/// JSON text of a Python value, for dumps(): dicts with str keys, lists and tuples, str, int (any
/// size), float (finite, written as Python's repr writes it), bool and None, through the encoder's
/// Writer in `style`. Anything else is an error at its JSON Pointer (every one is listed); the text is
/// then meaningless. The pointer is spelled only for an error: writing keeps a stack of keys and indexes.
class JsonWriter {
public:
    std::vector<rows::Error> errors;

    JsonWriter(std::string& out, rows::Style style) : w_(out, style) {}

    void value(py::handle v) {
        PyObject* const o = v.ptr();
        if (o == Py_None) {
            w_.null();
        } else if (PyBool_Check(o)) {
            w_.boolean(o == Py_True);
        } else if (PyLong_Check(o)) {
            int overflow = 0;
            const long long n = PyLong_AsLongLongAndOverflow(o, &overflow);
            if (!overflow) w_.integer(n);
            else w_.big_integer(std::string(py::str(py::int_(py::reinterpret_borrow<py::object>(v)))));  // digits of any size
        } else if (PyFloat_Check(o)) {
            const double d = PyFloat_AS_DOUBLE(o);
            if (std::isfinite(d)) w_.floating(d);
            else fail("rows.encode.number", std::string(py::repr(v)) + " is not a JSON number");
        } else if (PyUnicode_Check(o)) {
            if (const auto s = utf8(v)) w_.string(*s);
        } else if (PyDict_Check(o)) {
            w_.begin_object();
            Py_ssize_t at = 0;
            PyObject *key = nullptr, *item = nullptr;
            while (PyDict_Next(o, &at, &key, &item)) {
                const py::object k_held = py::reinterpret_borrow<py::object>(key), item_held = py::reinterpret_borrow<py::object>(item);
                if (!PyUnicode_Check(key)) {
                    fail("rows.encode.type", "key " + std::string(py::repr(key)) + " is not a str");
                    continue;
                }
                const auto k = utf8(key);
                if (!k) continue;
                path_.push_back({*k, 0, false});
                w_.key(*k);
                value(item);
                path_.pop_back();
            }
            w_.end_object();
        } else if (PyList_Check(o) || PyTuple_Check(o)) {
            const bool list = PyList_Check(o);
            w_.begin_array();
            path_.push_back({{}, 0, true});
            for (Py_ssize_t i = 0; i < (list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o)); ++i) {
                path_.back().index = static_cast<std::size_t>(i);
                value(py::reinterpret_borrow<py::object>(list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i)));
            }
            path_.pop_back();
            w_.end_array();
        } else {
            fail("rows.encode.type", "a " + std::string(py::str(py::type::of(v).attr("__name__"))) + " is not a JSON value");
        }
    }

    /// The text written, sized to it.
    std::string& finish() { return w_.finish(); }

private:
    struct Step {
        std::string_view key;  // a key of the dict being written (the dict holds its str)
        std::size_t index;
        bool is_array;
    };
    rows::detail::Writer w_;
    std::vector<Step> path_;

    void fail(const char* id, std::string message) {
        std::string pointer;
        for (const Step& s : path_) {
            if (s.is_array) pointer += '/' + std::to_string(s.index);
            else rows::detail::append_pointer_token(pointer, s.key);
        }
        errors.push_back(rows::Error{id, std::move(pointer), std::move(message)});
    }

    /// The UTF-8 of a str, valid while it lives; none (an error) for one holding a lone surrogate.
    std::optional<std::string_view> utf8(py::handle s) {
        Py_ssize_t n = 0;
        const char* bytes = PyUnicode_AsUTF8AndSize(s.ptr(), &n);
        if (bytes) return std::string_view(bytes, static_cast<std::size_t>(n));
        PyErr_Clear();
        fail("rows.encode.utf8", "string is not valid Unicode (a lone surrogate)");
        return std::nullopt;
    }
};

}  // namespace sediment_rows_python
