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
#include "ns3/type-id.h"

#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace ns3
{
namespace wancompat
{

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
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        throw std::invalid_argument(tid.GetName() + " has no attribute " + attribute);
    }
    // Every release lists an EnumChecker's names as "a|b|c".
    std::istringstream names(info.checker->GetUnderlyingTypeInformation());
    std::string expected;
    for (std::string n; std::getline(names, n, '|');)
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

} // namespace wancompat
} // namespace ns3

#endif /* WAN_TRAINING_COMPAT_H */
