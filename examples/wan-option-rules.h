/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_OPTION_RULES_H
#define WAN_OPTION_RULES_H

// What the example programs share to say when an option the user set does
// nothing: each program lists its options with the setting that makes each
// one apply (its options table), and CheckOptionRules refuses or warns.

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace wanopt
{

/**
 * @brief One row of a program's options table: an option, whether the user
 * set it to other than its default, and whether the run uses it.
 */
struct OptionRule
{
    std::string option; //!< e.g. "--parityBlock"
    bool changed;       //!< set to other than its default
    bool applies;       //!< this run uses it
    std::string needs;  //!< what would use it, e.g. "--recovery=coded or coded+early"
    /// refused when it does not apply (a part of the program that is off);
    /// otherwise a warning (an option a sweep shares between modes)
    bool refuse;
};

/**
 * @brief Refuses the first option that was set, does not apply and is
 * refused; then warns, one line each, of the other options that were set and
 * do not apply (unless quiet).
 * @param rules the program's options table
 * @param program the program's name, for the warnings
 * @param quiet no warnings (--quiet: nothing on standard error but errors)
 * @param err where the warnings go
 */
inline void
CheckOptionRules(const std::vector<OptionRule>& rules,
                 const std::string& program,
                 bool quiet,
                 std::ostream& err)
{
    for (const auto& r : rules)
    {
        if (r.changed && !r.applies && r.refuse)
        {
            throw std::invalid_argument(r.option + " does nothing here: it needs " + r.needs);
        }
    }
    if (quiet)
    {
        return;
    }
    for (const auto& r : rules)
    {
        if (r.changed && !r.applies)
        {
            err << program << ": warning: " << r.option << " does nothing here: it needs "
                << r.needs << "\n";
        }
    }
}

} // namespace wanopt

#endif /* WAN_OPTION_RULES_H */
