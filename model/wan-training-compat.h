/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_COMPAT_H
#define WAN_TRAINING_COMPAT_H

/**
 * @file
 * @ingroup wan-training
 * What differs between the ns-3 releases the module builds on (ns-3.37 to
 * current ns-3-dev), in one place.
 */

#include "ns3/attribute-accessor-helper.h"
#include "ns3/enum.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#if __has_include("ns3/application-helper.h")
#include "ns3/application-helper.h" // ns-3.42 and later
#define WAN_TRAINING_HAS_APPLICATION_HELPER 1
#else
#include "ns3/application-container.h"
#include "ns3/names.h"
#include "ns3/node-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#define WAN_TRAINING_HAS_APPLICATION_HELPER 0
#endif

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

class TcpCongestionOps;

namespace wancompat
{

/// The pcap link type of ns-3's point-to-point devices: PPP, 9 in
/// tcpdump.org's list of link types.  ns-3.37 names it PcapHelper::DLT_PPP,
/// which current ns-3-dev deprecates for iana::LinkType::PPP; the value is
/// the same in every release.
inline constexpr uint32_t kPcapLinkTypePpp = 9;

/**
 * @ingroup wan-training
 * @brief The EnumValue type that holds an enum E: EnumValue up to ns-3.40,
 * EnumValue<E> from ns-3.41 (deduced from its constructor, so that one
 * spelling serves both).  E must be an unscoped enum, which ns-3.37's
 * EnumValue takes as an int.
 */
template <typename E>
using EnumValueOf = decltype(EnumValue(std::declval<E>()));

/// @cond internal
template <typename Event>
auto
IsPendingOf(const Event& event, int) -> decltype(event.IsPending())
{
    return event.IsPending(); // ns-3.42 and later
}

template <typename Event>
bool
IsPendingOf(const Event& event, long)
{
    return event.IsRunning(); // up to ns-3.41 (removed since)
}

/// @endcond

/**
 * @ingroup wan-training
 * @brief Whether an event is still to run: EventId::IsRunning up to
 * ns-3.41, EventId::IsPending from ns-3.42 (IsRunning removed later).
 * @param event the event
 * @return true when it has neither run nor been cancelled
 */
inline bool
IsPending(const EventId& event)
{
    return IsPendingOf(event, 0);
}

/**
 * @ingroup wan-training
 * @brief A time in seconds, negative ones included, without undefined
 * behaviour: ns-3.37's int64x64_t shifts its integer left by 64 bits, which
 * for a negative number is undefined in C++17 (the sanitizer build reports
 * it; later ns-3 releases multiply).  A negative time is converted as its
 * negation, so the result is what Time::GetSeconds gives where the shift
 * behaves, bit for bit.
 * @param t the time
 * @return t in seconds
 */
inline double
ToSeconds(Time t)
{
    return t.IsNegative() ? -(Time(0) - t).GetSeconds() : t.GetSeconds();
}

/**
 * @ingroup wan-training
 * @brief MakeEnumAccessor for a data member of enum type: ns-3.37 deduces
 * the value type, ns-3.41 and later name it (MakeEnumAccessor<E>).
 * @param member the data member
 * @return its attribute accessor
 */
template <typename E, typename C>
Ptr<const AttributeAccessor>
MakeEnumMemberAccessor(E C::* member)
{
    return MakeAccessorHelper<EnumValueOf<E>>(member);
}

/**
 * @ingroup wan-training
 * @brief The information of an attribute of a type (its checker, its
 * initial value); throws std::invalid_argument when the type has none of
 * that name.
 * @param tid the type
 * @param attribute the attribute's name
 * @return its information
 */
inline TypeId::AttributeInformation
AttributeInformationOf(TypeId tid, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        throw std::invalid_argument(tid.GetName() + " has no attribute " + attribute);
    }
    return info;
}

/**
 * @ingroup wan-training
 * @brief The initial value of an attribute: what a new object gets unless
 * Config::SetDefault or the command line changed it (Config::SetDefault
 * changes this too).  So that code outside the object reads a default from
 * the one place it is written, the attribute.
 * @tparam V the attribute's value type (TimeValue, UintegerValue, ...)
 * @param tid the type
 * @param attribute the attribute's name
 * @return V::Get() of the initial value
 */
template <typename V>
auto
AttributeDefault(TypeId tid, const std::string& attribute)
{
    const auto info = AttributeInformationOf(tid, attribute);
    return DynamicCast<const V>(info.initialValue)->Get();
}

/**
 * @ingroup wan-training
 * @brief The initial value of an attribute as text (an enum's name).
 * @param tid the type
 * @param attribute the attribute's name
 * @return the initial value, serialized by the attribute's checker
 */
inline std::string
AttributeDefaultText(TypeId tid, const std::string& attribute)
{
    const auto info = AttributeInformationOf(tid, attribute);
    return info.initialValue->SerializeToString(info.checker);
}

/**
 * @ingroup wan-training
 * @brief The names of an enum attribute, in the order its checker lists
 * them: the one list of a mode's names, which messages, programs and
 * scripts read instead of restating it.
 * @param tid the type that has the attribute
 * @param attribute the attribute's name
 * @return its names
 */
inline std::vector<std::string>
EnumNames(TypeId tid, const std::string& attribute)
{
    // Every release lists an EnumChecker's names as "a|b|c".
    std::istringstream list(
        AttributeInformationOf(tid, attribute).checker->GetUnderlyingTypeInformation());
    std::vector<std::string> names;
    for (std::string n; std::getline(list, n, '|');)
    {
        names.push_back(n);
    }
    return names;
}

/**
 * @ingroup wan-training
 * @brief Refuses a name that an enum attribute does not have, before it is
 * set: ns-3 asserts on an unknown name (and reads past its list of names
 * in optimized builds), so names that come from users are checked first.
 * @param tid the type that has the attribute
 * @param attribute the attribute's name
 * @param name the name to be set
 * @param what what the attribute is, for the message ("recovery policy")
 */
inline void
RequireEnumName(TypeId tid,
                const std::string& attribute,
                const std::string& name,
                const std::string& what)
{
    std::string expected;
    for (const auto& n : EnumNames(tid, attribute))
    {
        if (n == name)
        {
            return;
        }
        expected += (expected.empty() ? "" : " or ") + n;
    }
    throw std::invalid_argument("unknown " + what + " \"" + name + "\" (expected " + expected +
                                ")");
}

/**
 * @ingroup wan-training
 * @brief The value of an enum attribute's name, after RequireEnumName.
 * @tparam E the (unscoped) enum
 * @param tid the type that has the attribute
 * @param attribute the attribute's name
 * @param name the name
 * @param what what the attribute is, for the message
 * @return its value
 */
template <typename E>
E
EnumFromName(TypeId tid,
             const std::string& attribute,
             const std::string& name,
             const std::string& what)
{
    RequireEnumName(tid, attribute, name, what);
    EnumValueOf<E> value;
    value.DeserializeFromString(name, AttributeInformationOf(tid, attribute).checker);
    return static_cast<E>(value.Get());
}

/**
 * @ingroup wan-training
 * @brief The name of a value of an enum attribute.
 * @param tid the type that has the attribute
 * @param attribute the attribute's name
 * @param value the value
 * @return its name
 */
template <typename E>
std::string
EnumName(TypeId tid, const std::string& attribute, E value)
{
    return EnumValueOf<E>(value).SerializeToString(AttributeInformationOf(tid, attribute).checker);
}

/**
 * @ingroup wan-training
 * @brief The parameter types of a member function (unevaluated only).
 * @return nothing: declared for decltype
 */
template <typename R, typename C, typename... A>
std::tuple<A...> ParametersOf(R (C::*)(A...));

/**
 * @ingroup wan-training
 * @brief The type of parameter I of Ipv4RoutingProtocol::RouteInput: its
 * four callbacks (3 to 6) are taken by value in ns-3.37 and by const
 * reference in ns-3.44, so an override spells them with this.
 */
template <std::size_t I>
using RouteInputParameter =
    std::tuple_element_t<I, decltype(ParametersOf(&Ipv4RoutingProtocol::RouteInput))>;

/// @cond internal
template <typename T, typename = void>
struct ExtensiveOf
{
    static constexpr auto value = T::EXTENSIVE; // up to ns-3.41 (deprecated since)
};

template <typename T>
struct ExtensiveOf<T, std::void_t<typename T::Duration>>
{
    static constexpr auto value = T::Duration::EXTENSIVE; // ns-3.42 and later
};

/// @endcond

/**
 * @ingroup wan-training
 * @brief The EXTENSIVE test duration of TestCase (given as T, so that this
 * header needs no test.h): an enum class member since ns-3.42, a plain enum
 * before.  test.py and test-runner run such a case only when asked for
 * (--fullness=EXTENSIVE).
 */
template <typename T>
inline constexpr auto Extensive = ExtensiveOf<T>::value;

#if WAN_TRAINING_HAS_APPLICATION_HELPER
/// The base of the module's application helpers: ns-3's ApplicationHelper.
using ApplicationHelper = ns3::ApplicationHelper;
#else
/**
 * @ingroup wan-training
 * @brief The base of the module's application helpers before ns-3.42: the
 * part of ns-3.42's ApplicationHelper they use (a type, its attributes, one
 * application per node through DoInstall).
 */
class ApplicationHelper
{
  public:
    /// @param typeId the applications' type
    explicit ApplicationHelper(TypeId typeId)
    {
        m_factory.SetTypeId(typeId);
    }

    virtual ~ApplicationHelper() = default;

    /**
     * @param name an attribute of the applications
     * @param value its value for those installed from now on
     */
    void SetAttribute(const std::string& name, const AttributeValue& value)
    {
        m_factory.Set(name, value);
    }

    /**
     * @param c nodes
     * @return one application per node (DoInstall)
     */
    ApplicationContainer Install(NodeContainer c)
    {
        ApplicationContainer apps;
        for (auto it = c.Begin(); it != c.End(); ++it)
        {
            apps.Add(DoInstall(*it));
        }
        return apps;
    }

    /**
     * @param node a node
     * @return its application (DoInstall)
     */
    ApplicationContainer Install(Ptr<Node> node)
    {
        return ApplicationContainer(DoInstall(node));
    }

    /**
     * @param nodeName a node's name (ns3::Names)
     * @return its application (DoInstall)
     */
    ApplicationContainer Install(const std::string& nodeName)
    {
        return Install(Names::Find<Node>(nodeName));
    }

  protected:
    /**
     * @param node a node
     * @return an application made by the factory, added to the node
     */
    virtual Ptr<Application> DoInstall(Ptr<Node> node)
    {
        auto app = m_factory.Create<Application>();
        node->AddApplication(app);
        return app;
    }

    ObjectFactory m_factory; //!< makes the applications
};
#endif

/**
 * @param tid a TypeId
 * @return a new object of that type when it is a TCP congestion control
 *         (a TcpCongestionOps), null otherwise. It is made to tell: ns-3.37's
 *         TcpCubic names TcpSocketBase as its parent TypeId, so
 *         TypeId::IsChildOf cannot (wan-training-compat.cc).
 */
Ptr<TcpCongestionOps> MakeCongestionControl(TypeId tid);

} // namespace wancompat
} // namespace ns3

#endif /* WAN_TRAINING_COMPAT_H */
