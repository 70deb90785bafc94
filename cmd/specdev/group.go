package main

import "github.com/specdev/specdev/review"

// GroupCmd groups the commands that declare a group of parallel loops.
type GroupCmd struct {
	Create GroupCreateCmd `cmd:"" help:"Declare a group's loops: it is judged over exactly them, a loop not started yet included."`
	Drop   GroupDropCmd   `cmd:"" help:"(Human) remove an abandoned loop from its group; its history records it."`
	Show   GroupShowCmd   `cmd:"" default:"withargs" hidden:"" help:"The group's loops at a glance (as specdev status --group NAME)."`
}

// GroupShowCmd shows a group as specdev status --group does.
type GroupShowCmd struct {
	Name string `arg:"" help:"The group." placeholder:"NAME"`
}

// Run shows the group.
func (c *GroupShowCmd) Run(app *App) error { return (&StatusCmd{Group: c.Name}).Run(app) }

// GroupCreateCmd declares a group.
type GroupCreateCmd struct {
	Name  string   `arg:"" help:"The group's name, as --group names it." placeholder:"NAME"`
	Loops []string `required:"" help:"Its loops: assignment names or unique prefixes, comma-separated (again with more loops: adds them)." placeholder:"NAME,NAME…"`
}

// Run writes the group's declaration.
func (c *GroupCreateCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.GroupCreate(app.ctx, c.Name, c.Loops) })
}

// GroupDropCmd removes one loop from a group.
type GroupDropCmd struct {
	Name string `arg:"" help:"The group." placeholder:"NAME"`
	Loop string `arg:"" help:"The loop to drop: an assignment name or a unique prefix." placeholder:"LOOP"`
}

// Run drops the loop.
func (c *GroupDropCmd) Run(app *App) error {
	return app.run(func(s *review.Service) (review.Result, error) { return s.GroupDrop(app.ctx, c.Name, c.Loop) })
}
