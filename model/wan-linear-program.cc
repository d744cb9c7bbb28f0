/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-linear-program.h"

#include "ns3/log.h"

#include <cmath>
#include <glpk.h>
#include <memory>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanLinearProgram");

namespace
{

/// GLPK bound type for [lower, upper].
int
BoundType(double lower, double upper)
{
    bool hasLower = std::isfinite(lower);
    bool hasUpper = std::isfinite(upper);
    if (hasLower && hasUpper)
    {
        return lower == upper ? GLP_FX : GLP_DB;
    }
    if (hasLower)
    {
        return GLP_LO;
    }
    return hasUpper ? GLP_UP : GLP_FR;
}

/// A GLPK finite bound (GLPK ignores the unused side).
double
Finite(double x)
{
    return std::isfinite(x) ? x : 0.0;
}

} // namespace

uint32_t
WanLinearProgram::AddVariable(const std::string& name, double lower, double upper, double cost)
{
    if (lower > upper)
    {
        throw std::invalid_argument("variable " + name + " has lower bound above upper bound");
    }
    m_vars.push_back({name, lower, upper, cost});
    return static_cast<uint32_t>(m_vars.size() - 1);
}

void
WanLinearProgram::AddConstraint(const std::vector<Term>& terms, double lower, double upper)
{
    for (const auto& t : terms)
    {
        if (t.first >= m_vars.size())
        {
            throw std::out_of_range("constraint names unknown variable #" +
                                    std::to_string(t.first));
        }
    }
    m_rows.push_back({terms, lower, upper});
}

void
WanLinearProgram::SetBounds(uint32_t var, double lower, double upper)
{
    auto& v = m_vars.at(var);
    if (lower > upper)
    {
        throw std::invalid_argument("variable " + v.name + " has lower bound above upper bound");
    }
    v.lower = lower;
    v.upper = upper;
}

void
WanLinearProgram::SetCost(uint32_t var, double cost)
{
    m_vars.at(var).cost = cost;
}

void
WanLinearProgram::ClearCosts()
{
    for (auto& v : m_vars)
    {
        v.cost = 0;
    }
}

WanLinearProgram::Status
WanLinearProgram::Minimize()
{
    NS_LOG_FUNCTION(this << m_vars.size() << m_rows.size());
    std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp(glp_create_prob(), glp_delete_prob);
    glp_set_obj_dir(lp.get(), GLP_MIN);
    if (!m_vars.empty())
    {
        glp_add_cols(lp.get(), static_cast<int>(m_vars.size()));
    }
    for (size_t j = 0; j < m_vars.size(); ++j)
    {
        const auto& v = m_vars[j];
        int col = static_cast<int>(j + 1);
        glp_set_col_bnds(lp.get(),
                         col,
                         BoundType(v.lower, v.upper),
                         Finite(v.lower),
                         Finite(v.upper));
        glp_set_obj_coef(lp.get(), col, v.cost);
    }
    // GLPK arrays are 1-based; element 0 is unused.
    std::vector<int> ia{0};
    std::vector<int> ja{0};
    std::vector<double> ar{0.0};
    if (!m_rows.empty())
    {
        glp_add_rows(lp.get(), static_cast<int>(m_rows.size()));
    }
    for (size_t i = 0; i < m_rows.size(); ++i)
    {
        const auto& r = m_rows[i];
        int row = static_cast<int>(i + 1);
        glp_set_row_bnds(lp.get(),
                         row,
                         BoundType(r.lower, r.upper),
                         Finite(r.lower),
                         Finite(r.upper));
        for (const auto& [var, coef] : r.terms)
        {
            ia.push_back(row);
            ja.push_back(static_cast<int>(var + 1));
            ar.push_back(coef);
        }
    }
    glp_load_matrix(lp.get(), static_cast<int>(ia.size() - 1), ia.data(), ja.data(), ar.data());

    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    int rc = glp_simplex(lp.get(), &parm);
    if (rc != 0)
    {
        NS_LOG_WARN("glp_simplex returned " << rc);
        return FAILED;
    }
    int status = glp_get_status(lp.get());
    if (status == GLP_NOFEAS || glp_get_prim_stat(lp.get()) == GLP_NOFEAS)
    {
        return INFEASIBLE;
    }
    if (status == GLP_UNBND)
    {
        return UNBOUNDED;
    }
    if (status != GLP_OPT)
    {
        return FAILED;
    }
    m_values.resize(m_vars.size());
    for (size_t j = 0; j < m_vars.size(); ++j)
    {
        m_values[j] = glp_get_col_prim(lp.get(), static_cast<int>(j + 1));
    }
    m_objective = glp_get_obj_val(lp.get());
    return OPTIMAL;
}

double
WanLinearProgram::GetValue(uint32_t var) const
{
    return m_values.at(var);
}

double
WanLinearProgram::GetObjective() const
{
    return m_objective;
}

uint32_t
WanLinearProgram::GetNVariables() const
{
    return static_cast<uint32_t>(m_vars.size());
}

uint32_t
WanLinearProgram::GetNConstraints() const
{
    return static_cast<uint32_t>(m_rows.size());
}

} // namespace ns3
