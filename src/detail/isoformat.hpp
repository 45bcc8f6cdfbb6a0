// ATIF's `timestamp` rule: what Python 3.11's `datetime.fromisoformat` accepts once every `Z` is
// replaced by `+00:00` (NeMo Gym's validator). Follows CPython's C parser step by step, including its
// reading of the text as a NUL-terminated byte string; tests compare it with python3 itself.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "text.hpp"

namespace sediment::rows::detail {

class PythonIsoformat {
public:
    /// datetime.fromisoformat(text) succeeds.
    static bool accepts(std::string_view text) { return PythonIsoformat(text).parse(); }

    /// datetime.fromisoformat(text.replace("Z", "+00:00")) succeeds.
    static bool accepts_atif_timestamp(std::string_view text) {
        std::string replaced;
        replaced.reserve(text.size() + 8);
        for (const char c : text) {
            if (c == 'Z') replaced += "+00:00";
            else replaced += c;
        }
        return accepts(replaced);
    }

private:
    explicit PythonIsoformat(std::string_view s) : s_(s) {}

    // The C code reads a NUL-terminated buffer: past the end is '\0'.
    char at(std::size_t i) const { return i < s_.size() ? s_[i] : '\0'; }
    static bool digit(char c) { return c >= '0' && c <= '9'; }

    bool digits(std::size_t& p, int& value, std::size_t n) const {
        for (std::size_t i = 0; i < n; ++i, ++p) {
            if (!digit(at(p))) return false;
            value = value * 10 + (at(p) - '0');
        }
        return true;
    }

    // Where the date ends: 7, 8 or 10 by the shape of characters 4 and 5 (YYYY-MM-DD, YYYYMMDD,
    // YYYY-Www, YYYYWww, YYYY-Www-D, YYYYWwwD); -1 when no shape fits.
    long separator() const {
        const std::size_t len = s_.size();
        if (len == 7) return 7;
        if (at(4) == '-') {
            if (at(5) != 'W') return 10;
            if (len < 8) return -1;
            if (len > 8 && at(8) == '-') {
                if (len == 9) return -1;
                if (len > 10 && digit(at(10))) return 8;
                return 10;
            }
            return 8;
        }
        if (at(4) == 'W') {
            std::size_t idx = 7;
            while (idx < len && digit(at(idx))) ++idx;
            if (idx < 9) return static_cast<long>(idx);
            return idx % 2 == 0 ? 7 : 8;
        }
        return 8;
    }

    static bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
    static int days_in_month(int y, int m) {
        static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        return kDays[m - 1] + (m == 2 && leap(y));
    }

    // ISO week date -> calendar date; false when week or day is out of range.
    static bool iso_to_ymd(int iso_year, int week, int weekday, int& year, int& month, int& day) {
        if (week <= 0 || week >= 53) {
            bool out_of_range = true;
            if (week == 53) {
                // Only years starting on Thursday, or leap years starting on Wednesday, have week 53.
                const int first_weekday = weekday_of(iso_year, 1, 1);  // Monday = 0
                if (first_weekday == 3 || (first_weekday == 2 && leap(iso_year))) out_of_range = false;
            }
            if (out_of_range) return false;
        }
        if (weekday <= 0 || weekday >= 8) return false;
        // Day 1 of ISO week 1 is the Monday of the week holding January 4.
        const long first_monday = ordinal(iso_year, 1, 4) - weekday_of(iso_year, 1, 4);
        from_ordinal(first_monday + (week - 1) * 7 + (weekday - 1), year, month, day);
        return true;
    }

    static long ordinal(int y, int m, int d) {  // days since 0001-01-01 is 1
        const long yb = y - 1;
        long n = yb * 365 + yb / 4 - yb / 100 + yb / 400;
        for (int k = 1; k < m; ++k) n += days_in_month(y, k);
        return n + d;
    }
    static int weekday_of(int y, int m, int d) { return static_cast<int>((ordinal(y, m, d) + 6) % 7); }
    static void from_ordinal(long n, int& y, int& m, int& d) {
        y = 1;
        while (n > ordinal(y + 1, 1, 1) - 1) ++y;  // fine for the few years around an ISO date
        while (y > 1 && n < ordinal(y, 1, 1)) --y;
        n -= ordinal(y, 1, 1) - 1;
        m = 1;
        while (n > days_in_month(y, m)) n -= days_in_month(y, m++);
        d = static_cast<int>(n);
    }

    bool date(std::size_t end, int& year, int& month, int& day) const {
        std::size_t p = 0;
        if (!digits(p, year, 4)) return false;
        const bool uses_separator = at(p) == '-';
        if (uses_separator) ++p;
        if (at(p) == 'W') {
            ++p;
            int week = 0, weekday = 0;
            if (!digits(p, week, 2)) return false;
            if (p < end) {
                if (uses_separator && at(p++) != '-') return false;
                if (!digits(p, weekday, 1)) return false;
            } else {
                weekday = 1;
            }
            return iso_to_ymd(year, week, weekday, year, month, day);
        }
        if (!digits(p, month, 2)) return false;
        if (uses_separator && at(p++) != '-') return false;
        return digits(p, day, 2);
    }

    // [HH[:?MM[:?SS[.ffffff]]]] between p and end: <0 on error, 1 when not at the end of the text.
    int hh_mm_ss_ff(std::size_t p, std::size_t end, int& hour, int& minute, int& second, int& micro) const {
        hour = minute = second = micro = 0;
        int* vals[3] = {&hour, &minute, &second};
        bool has_separator = true;
        for (int i = 0; i < 3; ++i) {
            if (!digits(p, *vals[i], 2)) return -3;
            const char c = at(p++);
            if (i == 0) has_separator = c == ':';
            if (p >= end) return c != '\0';
            if (has_separator && c == ':') continue;
            if (c == '.' || c == ',') break;
            if (!has_separator) --p;
            else return -4;
        }
        // a fraction after '.' or ',' (or straight after HHMMSS)
        const std::size_t remains = end > p ? end - p : 0;
        const std::size_t n = remains >= 6 ? 6 : remains;
        if (!digits(p, micro, n)) return -3;
        static constexpr int kCorrection[] = {100000, 10000, 1000, 100, 10};
        if (n == 0) return -3;
        if (n < 6) micro *= kCorrection[n - 1];
        while (digit(at(p))) ++p;
        return at(p) != '\0';
    }

    // Time and offset after the separator: <0 on error, 0 without an offset, 1 with one.
    int time(std::size_t begin, int& hour, int& minute, int& second, int& micro, long& offset_us) const {
        const std::size_t end = s_.size();
        std::size_t tz = begin;
        do {
            if (at(tz) == 'Z' || at(tz) == '+' || at(tz) == '-') break;
        } while (++tz < end);
        const int rv = hh_mm_ss_ff(begin, tz, hour, minute, second, micro);
        if (rv < 0) return rv;
        if (tz == end) return rv == 1 ? -5 : 0;
        if (at(tz) == 'Z') return at(tz + 1) != '\0' ? -5 : 1;
        const int sign = at(tz) == '-' ? -1 : 1;
        int th = 0, tm = 0, ts = 0, tus = 0;
        const int trv = hh_mm_ss_ff(tz + 1, end, th, tm, ts, tus);
        offset_us = sign * ((th * 3600L + tm * 60L + ts) * 1000000L + tus);
        return trv ? -5 : 1;
    }

    bool parse() const {
        if (code_points(s_) < 7) return false;  // CPython: every valid string has 7 characters or more
        const long sep = separator();
        if (sep < 0) return false;
        int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, micro = 0;
        long offset_us = 0;
        if (!date(static_cast<std::size_t>(sep), year, month, day)) return false;
        if (s_.size() > static_cast<std::size_t>(sep)) {
            // the separator may be any character: skip its UTF-8 bytes as CPython does, by the lead byte
            const auto lead = static_cast<unsigned char>(at(static_cast<std::size_t>(sep)));
            const std::size_t width = lead < 0x80 ? 1 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF0) == 0xF0 ? 4 : 2;
            if (time(static_cast<std::size_t>(sep) + width, hour, minute, second, micro, offset_us) < 0) return false;
        }
        // datetime(...) and timezone(...) range checks
        if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month))
            return false;
        if (hour > 23 || minute > 59 || second > 59) return false;
        const long day_us = 86400L * 1000000L;
        return offset_us > -day_us && offset_us < day_us;
    }

    std::string_view s_;
};

}  // namespace sediment::rows::detail
