/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-fault-list.h"

#include "wan-training-text.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{
namespace bounds = wantext::bounds;

/// @return "<option>: "<item>"" for messages
std::string
Where(const std::string& option, const std::string& item)
{
    return option + ": \"" + wantext::Printable(item) + "\"";
}

/// @return the text as a time in the range of fault times; throws naming the item otherwise
double
Seconds(const std::string& text, const std::string& option, const std::string& item)
{
    const auto where = Where(option, item);
    return bounds::kFaultSeconds.Check(wantext::ParseNumber(text, where), where);
}

/// @return the text as a round number; throws naming the item unless a whole number in range
uint32_t
Round(const std::string& text, const std::string& option, const std::string& item)
{
    const auto where = Where(option, item);
    const double round = bounds::kRounds.Check(wantext::ParseNumber(text, where), where);
    if (round != std::floor(round))
    {
        throw std::invalid_argument(where + ": round " + wantext::Num(round) +
                                    " is not a whole number");
    }
    return static_cast<uint32_t>(round);
}
} // namespace

WanFaultList::Item
WanFaultList::Split(const std::string& item,
                    const std::string& option,
                    bool range,
                    const std::string& form)
{
    const auto at = item.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == item.size())
    {
        throw std::invalid_argument(Where(option, item) + " is not " + form);
    }
    const auto dash = range ? item.find('-', at + 1) : std::string::npos;
    Item parts;
    parts.name = item.substr(0, at);
    parts.first =
        item.substr(at + 1, dash == std::string::npos ? std::string::npos : dash - at - 1);
    parts.second = dash == std::string::npos ? "" : item.substr(dash + 1);
    return parts;
}

std::vector<WanFaultList::LinkFault>
WanFaultList::ParseLinkFaults(const std::string& text, const std::string& option)
{
    const std::string form = "A-B@down-up";
    std::vector<LinkFault> faults;
    for (const auto& item : wantext::SplitList(text))
    {
        const auto parts = Split(item, option, true, form);
        const auto dash = parts.name.find('-');
        if (dash == std::string::npos || dash == 0 || dash + 1 == parts.name.size() ||
            parts.second.empty())
        {
            throw std::invalid_argument(Where(option, item) + " is not " + form);
        }
        faults.push_back({parts.name.substr(0, dash),
                          parts.name.substr(dash + 1),
                          Seconds(parts.first, option, item),
                          Seconds(parts.second, option, item)});
    }
    return faults;
}

std::vector<WanFaultList::FpgaFault>
WanFaultList::ParseFpgaFaults(const std::string& text, const std::string& option)
{
    std::vector<FpgaFault> faults;
    for (const auto& item : wantext::SplitList(text))
    {
        const auto parts = Split(item, option, false, "CITY@at");
        faults.push_back({parts.name, Seconds(parts.first, option, item)});
    }
    return faults;
}

std::vector<WanFaultList::Absence>
WanFaultList::ParseAbsences(const std::string& text, const std::string& option)
{
    std::vector<Absence> absences;
    for (const auto& item : wantext::SplitList(text))
    {
        const auto parts = Split(item, option, true, "CITY@first-last or CITY@round");
        const uint32_t first = Round(parts.first, option, item);
        absences.push_back(
            {parts.name, first, parts.second.empty() ? first : Round(parts.second, option, item)});
    }
    return absences;
}

} // namespace ns3
