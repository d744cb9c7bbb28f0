/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_FAULT_LIST_H
#define WAN_FAULT_LIST_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The readers of the fault lists that programs take as text
 * (nine-city-cliques' --linkFaults, --fpgaFaults and --away): comma lists of
 * "A-B@down-up" (a core link between two cities, down and up again, seconds),
 * "CITY@at" (an island's FPGA fails, seconds) and "CITY@first-last" or
 * "CITY@round" (an island away for rounds).
 *
 * Each reader checks the form and the ranges (times in
 * wantext::bounds::kFaultSeconds, rounds in wantext::bounds::kRounds) and
 * throws std::invalid_argument with one line naming the option, the item and
 * what is wrong.  The names of cities and links, and the order of the two
 * times or rounds, are checked by the experiment that is handed the faults
 * (WanExperimentPlanner, through CliqueExperimentHelper), which knows the
 * topology.
 */
class WanFaultList
{
  public:
    /// A core link that goes down and comes up again
    struct LinkFault
    {
        std::string a;      //!< one end's city
        std::string b;      //!< the other end's city
        double downSeconds; //!< when it fails
        double upSeconds;   //!< when it is repaired
    };

    /// An island's FPGA that fails
    struct FpgaFault
    {
        std::string city; //!< the island
        double atSeconds; //!< when it fails
    };

    /// An island that is away for some rounds
    struct Absence
    {
        std::string city;    //!< the island
        uint32_t firstRound; //!< first round away
        uint32_t lastRound;  //!< last round away (first when one round)
    };

    /**
     * @param text e.g. "NYC-CHI@0.5-2, LAX-SEA@1-3"; empty: no fault
     * @param option the option's name for messages ("--linkFaults")
     * @return the link faults, in the order written
     */
    static std::vector<LinkFault> ParseLinkFaults(const std::string& text,
                                                  const std::string& option);

    /**
     * @param text e.g. "NYC@0.5, LON@2"; empty: no fault
     * @param option the option's name for messages ("--fpgaFaults")
     * @return the FPGA faults, in the order written
     */
    static std::vector<FpgaFault> ParseFpgaFaults(const std::string& text,
                                                  const std::string& option);

    /**
     * @param text e.g. "NYC@3-5, LON@2"; empty: nobody away
     * @param option the option's name for messages ("--away")
     * @return the absences, in the order written
     */
    static std::vector<Absence> ParseAbsences(const std::string& text, const std::string& option);

  private:
    /// One item split at its '@'
    struct Item
    {
        std::string name;   //!< before the '@'
        std::string first;  //!< after the '@' (up to the range's '-')
        std::string second; //!< after the range's '-' (empty without one)
    };

    /**
     * @param item "NAME@first" or, with range, "NAME@first-second"
     * @param option the option's name for messages
     * @param range whether a '-' after the '@' separates two values
     * @param form the expected form, for messages ("A-B@down-up")
     * @return the item's parts; throws std::invalid_argument naming the
     *         option, the item and the expected form if it has no '@', no
     *         name or nothing after the '@'
     */
    static Item Split(const std::string& item,
                      const std::string& option,
                      bool range,
                      const std::string& form);
};

} // namespace ns3

#endif /* WAN_FAULT_LIST_H */
