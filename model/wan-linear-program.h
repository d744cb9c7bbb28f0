/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LINEAR_PROGRAM_H
#define WAN_LINEAR_PROGRAM_H

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A small linear program solved with GLPK's simplex method.
 *
 * Variables and constraints are added one by one; bounds of +-infinity mean
 * "unbounded".  The GLPK header stays out of this file.
 */
class WanLinearProgram
{
  public:
    /// Infinity, for bounds.
    static constexpr double kInf = std::numeric_limits<double>::infinity();

    /// Outcome of Solve.
    enum Status
    {
        OPTIMAL,    //!< an optimal solution was found
        INFEASIBLE, //!< no point satisfies the constraints
        UNBOUNDED,  //!< the objective is unbounded
        FAILED      //!< the solver failed
    };

    /// A term of a constraint: (variable index, coefficient).
    using Term = std::pair<uint32_t, double>;

    /**
     * @param name variable name (for debugging)
     * @param lower lower bound
     * @param upper upper bound
     * @param cost objective coefficient
     * @return the variable's index
     */
    uint32_t AddVariable(const std::string& name,
                         double lower = 0,
                         double upper = kInf,
                         double cost = 0);
    /**
     * @brief Adds lower <= sum(coef * x) <= upper.
     * @param terms the linear expression
     * @param lower lower bound (may be -kInf)
     * @param upper upper bound (may be kInf)
     */
    void AddConstraint(const std::vector<Term>& terms, double lower, double upper);
    /**
     * @param var variable index
     * @param lower its new lower bound
     * @param upper its new upper bound
     */
    void SetBounds(uint32_t var, double lower, double upper);
    /**
     * @param var variable index
     * @param cost its new objective coefficient
     */
    void SetCost(uint32_t var, double cost);
    /** @brief Sets every objective coefficient to zero. */
    void ClearCosts();

    /**
     * @brief Minimises the objective.
     * @return the status; on OPTIMAL, GetValue and GetObjective are set
     */
    Status Minimize();
    /**
     * @param var variable index
     * @return its value in the last optimal solution
     */
    double GetValue(uint32_t var) const;
    /** @return the objective of the last optimal solution */
    double GetObjective() const;
    /** @return the number of variables */
    uint32_t GetNVariables() const;
    /** @return the number of constraints */
    uint32_t GetNConstraints() const;

  private:
    /// A variable.
    struct Variable
    {
        std::string name; //!< name
        double lower;     //!< lower bound
        double upper;     //!< upper bound
        double cost;      //!< objective coefficient
    };

    /// A constraint row.
    struct Row
    {
        std::vector<Term> terms; //!< expression
        double lower;            //!< lower bound
        double upper;            //!< upper bound
    };

    std::vector<Variable> m_vars; //!< variables
    std::vector<Row> m_rows;      //!< constraints
    std::vector<double> m_values; //!< last solution
    double m_objective{0};        //!< last objective
};

} // namespace ns3

#endif /* WAN_LINEAR_PROGRAM_H */
