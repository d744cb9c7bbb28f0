/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARAMETER_SERVER_APPLICATION_H
#define WAN_PARAMETER_SERVER_APPLICATION_H

#include "wan-collective-application.h"
#include "wan-parameter-server.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One member of a parameter-server exchange over ns-3's TCP: the
 * server, or a worker that sends its update to the server and gets the sum
 * back, for comparison with the ring and the paper's system on the same
 * links.
 *
 * A worker dials the server; the server accepts every worker's connections
 * and sends the sums back on them (WanCollectiveApplication: connections,
 * records, TCP settings). When the collective begins it runs
 * WanParameterServer: each worker's D bytes in, each chunk's sum out to every
 * worker as soon as its last value is in. The sums are checked exact against
 * the members' contributions when the member holds every chunk's sum.
 */
class WanParameterServerApplication : public WanCollectiveApplication
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanParameterServerApplication();
    ~WanParameterServerApplication() override;

    /**
     * @brief The members, before the application starts.
     * @param members every member's island address (at least 2)
     * @param server the server's place among them
     * @param position this member's
     * @param own this member's value of each chunk
     * @param expected each chunk's sum over the members (for the check)
     * @throws std::invalid_argument naming the bad value
     */
    void SetMembers(const std::vector<Ipv4Address>& members,
                    uint32_t server,
                    uint32_t position,
                    std::vector<int64_t> own,
                    std::vector<int64_t> expected);

  private:
    void DoStart() override;
    void DoBegin() override;
    void DoReceive(uint32_t peer, const WanCollectiveRecord& record) override;
    int64_t PeerOf(Ipv4Address from) const override;

    std::vector<Ipv4Address> m_members;          //!< every member's address
    uint32_t m_server{0};                        //!< the server's place
    uint32_t m_position{0};                      //!< this member's
    std::vector<int64_t> m_expected;             //!< each chunk's sum
    std::unique_ptr<WanParameterServer> m_logic; //!< the logic
};

} // namespace ns3

#endif /* WAN_PARAMETER_SERVER_APPLICATION_H */
