package routes

// The empleados group (issue 15, "Employees"): the company's employees,
// which the payroll (nomina) and the buses' drivers name.
func init() {
	Register(func() []Route {
		g := grupo{group: "empleados", path: "/api"}
		return conResumenes(map[string]string{
			"empleados.index":   "Listar empleados con edad y antigüedad (puesto, estado, departamento, sucursal_id, search, activos; formato=csv|excel exporta)",
			"empleados.store":   "Crear un empleado (identificación de Costa Rica única en la empresa; edad mínima de contratación 15 años; IBAN CR)",
			"empleados.show":    "Ver un empleado con edad y antigüedad",
			"empleados.update":  "Actualizar un empleado",
			"empleados.patch":   "Actualizar parcialmente un empleado",
			"empleados.destroy": "Eliminar (lógicamente) un empleado que no es chofer de un bus",
		}, g.crud("empleados", "empleados"))
	})
}
